import type { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

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
    return adapter;
  };
  return factory;
}
