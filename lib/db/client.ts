import "server-only";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { processSingleton } from "@service-integration/kit/server";
import { getConfig } from "@/lib/config";
import { PrismaClient } from "./generated/client";
import { PrismaClient as PostgresPrismaClient } from "./generated-pg/client";

/** DATABASE_URL picks the database: SQLite (`file:…`, embedded, one instance) or PostgreSQL
 *  (`postgresql://…`, several instances; docs/decisions/scaling.md). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/**
 * The shop's database client, one per process.
 *
 * PostgreSQL: Prisma's `pg` driver adapter, typed as the app's one database type. Its models
 * are those of the SQLite schema, checked by prisma/schema-sync.test.ts; the two generated
 * types differ only in what the providers allow beside the models (transaction isolation
 * levels), which the shop does not choose.
 *
 * SQLite settings, through public APIs only: the adapter's `timeout` is better-sqlite3's busy
 * timeout (a second process, a migration or another instance waits for the write lock instead
 * of failing at once), and two PRAGMAs sent as queries when the client is created: write-ahead
 * log (one fsync per commit instead of several, readers beside a writer) and
 * `synchronous = FULL`, because a 200 to the order webhook tells the service to stop retrying,
 * so the commit behind it must survive a power cut (docs/decisions/webhook-storage.md).
 */
export function createDbClient(url: string): PrismaClient {
  if (isPostgresUrl(url)) {
    const client = new PostgresPrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
    postgresClients().add(client);
    return client as unknown as PrismaClient;
  }
  const client = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url, timeout: 5000 }) });
  // An in-memory database keeps its "memory" journal; the PRAGMA is then a no-op.
  client.$queryRawUnsafe("PRAGMA journal_mode = WAL").catch(() => {});
  client.$queryRawUnsafe("PRAGMA synchronous = FULL").catch(() => {});
  return client;
}

/** The clients createDbClient made on PostgreSQL (one set per process, whatever the copies). */
const postgresClients = () => processSingleton("postgres-clients", () => new WeakSet<object>());

/** Whether a client of createDbClient runs on PostgreSQL (for the few statements that differ). */
export function isPostgres(client: object): boolean {
  return postgresClients().has(client);
}

export const DB_SINGLETON = "database";

export function getDb(): PrismaClient {
  return processSingleton(DB_SINGLETON, () => createDbClient(getConfig().DATABASE_URL));
}

export type { Prisma } from "./generated/client";
export type Db = PrismaClient;
/** The client handed to `$transaction(async (tx) => ...)` callbacks. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
