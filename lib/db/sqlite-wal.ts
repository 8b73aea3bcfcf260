import type { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type Database from "better-sqlite3";

/**
 * Opens the shop's SQLite connection in write-ahead-log mode, before its first query. With the
 * default rollback journal every commit costs several fsyncs (about 4 ms here) during which
 * better-sqlite3 blocks the whole process; WAL needs one (about 1 ms) and lets readers run
 * beside a writer. `synchronous` stays FULL on purpose: a 200 to the order webhook tells the
 * service to stop retrying, so the commit behind it must survive a power cut. `busy_timeout`
 * lets a second process (a migration, a benchmark's check, another instance) wait for the lock
 * instead of failing at once. Measured in `npm run bench:webhook` (README, Service integration).
 */
export function withWriteAheadLog(factory: PrismaBetterSQLite3): PrismaBetterSQLite3 {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    // An in-memory database keeps its "memory" journal; the statement is then a no-op.
    await adapter.executeScript("PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;");
    // The adapter keeps its better-sqlite3 connection as `client` (Prisma 6.19, pinned).
    // Checked by shape: the adapter may load its own copy of better-sqlite3, so `instanceof`
    // against ours can be false for a perfectly good connection.
    const client = (adapter as unknown as { client?: Partial<Database.Database> }).client;
    if (
      typeof client?.prepare === "function" &&
      typeof client.transaction === "function" &&
      typeof client.inTransaction === "boolean"
    ) {
      connections.set(factory, client as Database.Database);
    }
    return adapter;
  };
  return factory;
}

// Kept on globalThis: `next build` may bundle this module into several server chunks, and the
// client (lib/db/client.ts, also on globalThis) created by one chunk must be found by another.
const registry = globalThis as unknown as {
  shopSqliteConnections?: WeakMap<object, Database.Database>;
  shopSqliteFactories?: WeakMap<object, PrismaBetterSQLite3>;
};
registry.shopSqliteConnections ??= new WeakMap<object, Database.Database>();
registry.shopSqliteFactories ??= new WeakMap<object, PrismaBetterSQLite3>();
const connections = registry.shopSqliteConnections;
const factories = registry.shopSqliteFactories;

/** Remembers which adapter a Prisma client runs on, for `sqliteConnection`. */
export function trackSqliteConnection<C extends object>(
  client: C,
  factory: PrismaBetterSQLite3,
): C {
  factories.set(client, factory);
  return client;
}

/**
 * The better-sqlite3 connection under a Prisma client: the SAME connection, so synchronous
 * statements on it never contend with Prisma for SQLite's write lock. Rules for using it
 * (lib/shop/service-notification-sql.ts does): only synchronous code, and a transaction of
 * its own only when `inTransaction` is false — inside one of Prisma's interactive transactions
 * the statements simply join it. Throws if Prisma stops exposing the connection, so an upgrade
 * fails the test suite rather than production.
 */
export async function sqliteConnection(client: object & { $connect(): Promise<void> }) {
  const factory = factories.get(client);
  if (!factory) throw new Error("This Prisma client was not created with trackSqliteConnection");
  let connection = connections.get(factory);
  if (!connection) {
    await client.$connect();
    connection = connections.get(factory);
  }
  if (!connection) {
    throw new Error(
      "The Prisma better-sqlite3 adapter no longer exposes its connection (`client`)",
    );
  }
  return connection;
}
