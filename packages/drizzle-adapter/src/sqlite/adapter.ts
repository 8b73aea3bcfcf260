import type Database from "better-sqlite3";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { AnySQLiteColumn, BaseSQLiteDatabase, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { ShopCallbacks, TokenSealer } from "../callbacks.js";
import { createPorts, type DrizzleServiceAdapter, driverCode } from "../core.js";
import { type serviceOrderColumns, serviceSchema } from "./schema.js";

/** The shop's better-sqlite3 Drizzle database: what the shop's callbacks are given (inside a
 *  Service Pay transaction, the same connection, between BEGIN IMMEDIATE and COMMIT). */
export type SqliteQueries<TSchema extends Record<string, unknown> = Record<string, unknown>> =
  BaseSQLiteDatabase<"sync", unknown, TSchema, ExtractTablesWithRelations<TSchema>>;

/** The shop's orders table: its `id` and `number`, and the spread serviceOrderColumns(). */
export type SqliteOrdersTable = SQLiteTable & {
  [K in keyof ReturnType<typeof serviceOrderColumns> | "id" | "number"]: AnySQLiteColumn;
};

export interface SqliteAdapterOptions<TSchema extends Record<string, unknown>> {
  /** The shop's Drizzle database on one better-sqlite3 connection (set busy_timeout on it:
   *  another process's writer makes BEGIN IMMEDIATE wait, not fail). */
  db: SqliteDb<TSchema>;
  /** The shop's orders table (serviceOrderColumns spread in). */
  orders: SqliteOrdersTable;
  shop: ShopCallbacks<SqliteQueries<TSchema>>;
  /** The kit's `createTokenSealer(key)` (@service-integration/kit/server). */
  sealer: TokenSealer;
  /** The token row's id. Default "default". */
  tokenId?: string;
}

type Client = Database.Database;
/** What `drizzle(new Database(file), { schema })` returns. */
export type SqliteDb<TSchema extends Record<string, unknown>> = BetterSQLite3Database<TSchema> & {
  $client: Client;
};

/** Each connection's queue: the promise of its last piece of work. */
const queues = new WeakMap<Client, Promise<unknown>>();

/**
 * Runs `fn` on the connection after everything queued on it before, alone; with `begin`,
 * inside `BEGIN IMMEDIATE` … `COMMIT` (ROLLBACK when `fn` throws).
 *
 * Why: Drizzle's better-sqlite3 driver runs `db.transaction` synchronously, and the kit's
 * transactions await between their statements. So the adapter runs the statements itself on
 * the one connection: BEGIN IMMEDIATE takes SQLite's write lock before the first read (what a
 * transaction reads stays as read until it commits, against every other process and
 * connection: the database decides, not memory), and the queue keeps this process's other
 * async work off the connection meanwhile (on one connection, a statement sent while a
 * transaction is open would join it). Never nest: `fn` must not wait on the queue itself.
 */
function queued<T>(client: Client, begin: boolean, fn: () => Promise<T>): Promise<T> {
  const run = (queues.get(client) ?? Promise.resolve()).then(async () => {
    if (!begin) return fn();
    client.exec("BEGIN IMMEDIATE");
    try {
      const result = await fn();
      client.exec("COMMIT");
      return result;
    } catch (error) {
      // SQLite may have ended the transaction itself (e.g. a full disk): nothing to undo then.
      if (client.inTransaction) client.exec("ROLLBACK");
      throw error;
    }
  });
  queues.set(
    client,
    run.catch(() => undefined),
  );
  return run;
}

/**
 * The shop's own transaction on the connection the adapter uses, in the same queue (BEGIN
 * IMMEDIATE … COMMIT): every write the shop makes on that connection outside the adapter
 * must go through it, or it may land inside an adapter transaction that is open at the time.
 */
export function sqliteTransaction<TSchema extends Record<string, unknown>, T>(
  db: SqliteDb<TSchema>,
  fn: (q: SqliteDb<TSchema>) => Promise<T> | T,
): Promise<T> {
  return queued(db.$client, true, async () => fn(db));
}

/**
 * Every port of the kit that belongs to the integration, on SQLite through better-sqlite3:
 * each transaction BEGIN IMMEDIATE (the one write lock held before the first read, so
 * findOrderFor's and changeOrder's rows stay as read until commit: SQLite's lock for PostgreSQL's
 * FOR UPDATE), `INSERT … ON CONFLICT` for every claim, and a unique violation
 * (SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY) answered as the kit's ConcurrentWriteError.
 */
export function drizzleServiceAdapter<TSchema extends Record<string, unknown>>(
  options: SqliteAdapterOptions<TSchema>,
): DrizzleServiceAdapter {
  const { db } = options;
  const client = db.$client;
  return createPorts(
    {
      tables: serviceSchema,
      orders: options.orders,
      transaction: (fn) => queued(client, true, () => fn(db)),
      outside: (fn) => queued(client, false, () => fn(db)),
      // BEGIN IMMEDIATE already holds the one write lock: no row lock to take.
      locked: (select) => select,
      isUniqueViolation: (error) => {
        const code = driverCode(error);
        return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
      },
    },
    options,
  );
}
