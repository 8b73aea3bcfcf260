import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { getConfig } from "@/lib/config";
import { PrismaClient } from "./generated/client";
import { trackSqliteConnection, withWriteAheadLog } from "./sqlite-wal";

// One client per process. In development Next reloads modules, so the instance is kept on
// globalThis to avoid opening a new SQLite connection on every change.
const globalForPrisma = globalThis as unknown as { shopPrisma?: PrismaClient };

function createClient(): PrismaClient {
  const adapter = withWriteAheadLog(new PrismaBetterSQLite3({ url: getConfig().DATABASE_URL }));
  return trackSqliteConnection(new PrismaClient({ adapter }), adapter);
}

export function getDb(): PrismaClient {
  globalForPrisma.shopPrisma ??= createClient();
  return globalForPrisma.shopPrisma;
}

export type { Prisma } from "./generated/client";
export type Db = PrismaClient;
/** The client handed to `$transaction(async (tx) => ...)` callbacks. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
