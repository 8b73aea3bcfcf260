import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { getConfig } from "@/lib/config";
import { PrismaClient } from "./generated/client";
import { PrismaClient as PostgresPrismaClient } from "./generated-pg/client";
import { trackSqliteConnection, withWriteAheadLog } from "./sqlite-wal";

// One client per process. In development Next reloads modules, so the instance is kept on
// globalThis to avoid opening a new connection on every change.
const globalForPrisma = globalThis as unknown as { shopPrisma?: PrismaClient };

/** DATABASE_URL picks the database: SQLite (`file:…`, embedded, one instance) or PostgreSQL
 *  (`postgresql://…`, several instances; docs/decisions/scaling.md). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/**
 * The PostgreSQL client, typed as the app's one database type. Its models are those of the
 * SQLite schema, checked by prisma/schema-sync.test.ts; the two generated types differ only in
 * what the providers allow beside the models (transaction isolation levels), which the shop
 * does not choose.
 */
export function createPostgresClient(connectionString: string): Db {
  return new PostgresPrismaClient({
    adapter: new PrismaPg({ connectionString }),
  }) as unknown as Db;
}

function createClient(): PrismaClient {
  const url = getConfig().DATABASE_URL;
  if (isPostgresUrl(url)) return createPostgresClient(url);
  const adapter = withWriteAheadLog(new PrismaBetterSQLite3({ url }));
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
