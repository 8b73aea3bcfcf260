// One SQLite connection shared by a process's async work, for a row store on a synchronous
// driver (better-sqlite3 under Drizzle, Kysely, …): its transactions and its lone statements
// in one queue per connection.

/** What the queue needs of the driver's connection. */
export interface SqliteConnection {
  /** Runs SQL without results (BEGIN IMMEDIATE, COMMIT, ROLLBACK). */
  exec(sql: string): unknown;
  /** Whether a transaction is open on the connection (better-sqlite3's `inTransaction`). */
  readonly inTransaction: boolean;
}

/** Each connection's queue: the promise of its last piece of work. */
const queues = new WeakMap<SqliteConnection, Promise<unknown>>();

/**
 * Runs `fn` on the connection after everything queued on it before, alone; with `begin`,
 * inside `BEGIN IMMEDIATE` … `COMMIT` (ROLLBACK when `fn` throws).
 *
 * Why: a synchronous driver cannot await between a transaction's statements, and the kit's
 * transactions do. So the statements run on the one connection: BEGIN IMMEDIATE takes SQLite's
 * write lock before the first read (what a transaction reads stays as read until it commits,
 * against every other process and connection: the database decides, not memory), and the
 * queue keeps this process's other async work off the connection meanwhile (on one connection,
 * a statement sent while a transaction is open would join it). Never nest: `fn` must not wait
 * on the queue itself.
 */
export function onSqliteConnection<T>(
  connection: SqliteConnection,
  begin: boolean,
  fn: () => PromiseLike<T> | T,
): Promise<T> {
  const run = (queues.get(connection) ?? Promise.resolve()).then(async () => {
    if (!begin) return fn();
    connection.exec("BEGIN IMMEDIATE");
    try {
      const result = await fn();
      connection.exec("COMMIT");
      return result;
    } catch (error) {
      // SQLite may have ended the transaction itself (e.g. a full disk): nothing to undo then.
      if (connection.inTransaction) connection.exec("ROLLBACK");
      throw error;
    }
  });
  queues.set(
    connection,
    run.catch(() => undefined),
  );
  return run;
}
