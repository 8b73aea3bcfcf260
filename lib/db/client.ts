import "server-only";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { getConfig } from "@/lib/config";
import { processSingleton } from "@/lib/service/process-singleton";
import { PrismaClient } from "./generated/client";

/**
 * The shop's database client, one per process. SQLite settings, through public APIs only: the
 * adapter's `timeout` is better-sqlite3's busy timeout (a second process, a migration or another
 * instance waits for the write lock instead of failing at once), and two PRAGMAs sent as queries
 * when the client is created: write-ahead log (one fsync per commit instead of several, readers
 * beside a writer) and `synchronous = FULL`, because a 200 to the order webhook tells the service
 * to stop retrying, so the commit behind it must survive a power cut
 * (docs/decisions/webhook-storage.md).
 */
export function createDbClient(url: string): PrismaClient {
  const client = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url, timeout: 5000 }) });
  // An in-memory database keeps its "memory" journal; the PRAGMA is then a no-op.
  client.$queryRawUnsafe("PRAGMA journal_mode = WAL").catch(() => {});
  client.$queryRawUnsafe("PRAGMA synchronous = FULL").catch(() => {});
  return client;
}

export const DB_SINGLETON = "database";

export function getDb(): PrismaClient {
  return processSingleton(DB_SINGLETON, () => createDbClient(getConfig().DATABASE_URL));
}

export type { Prisma } from "./generated/client";
export type Db = PrismaClient;
/** The client handed to `$transaction(async (tx) => ...)` callbacks. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
