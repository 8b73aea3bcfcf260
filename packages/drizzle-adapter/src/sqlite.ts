// @service-integration/drizzle-adapter/sqlite: the integration's tables on SQLite and the
// adapter over them (better-sqlite3).
import { onSqliteConnection, type ServiceAdapterOptions } from "@service-integration/kit";
import type Database from "better-sqlite3";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { AnySQLiteColumn, BaseSQLiteDatabase, SQLiteTable } from "drizzle-orm/sqlite-core";
import { createPorts, type DrizzleServiceAdapter, driverCode } from "./core.js";
import { type serviceOrderColumns, serviceSchema } from "./sqlite/schema.js";

/** The shop's better-sqlite3 Drizzle database: what the shop's callbacks are given (inside a
 *  Service Pay transaction, the same connection, between BEGIN IMMEDIATE and COMMIT). */
export type SqliteQueries<TSchema extends Record<string, unknown> = Record<string, unknown>> =
  BaseSQLiteDatabase<"sync", unknown, TSchema, ExtractTablesWithRelations<TSchema>>;

/** The shop's orders table: its `id` and `number`, and the spread serviceOrderColumns(). */
export type SqliteOrdersTable = SQLiteTable & {
  [K in keyof ReturnType<typeof serviceOrderColumns> | "id" | "number"]: AnySQLiteColumn;
};

/** drizzleServiceAdapter's options on SQLite: the kit's (callbacks, sealer), db, orders. */
export interface SqliteAdapterOptions<TSchema extends Record<string, unknown>>
  extends ServiceAdapterOptions<SqliteQueries<TSchema>> {
  /** The shop's Drizzle database on one better-sqlite3 connection (set busy_timeout on it:
   *  another process's writer makes BEGIN IMMEDIATE wait, not fail). */
  db: SqliteDb<TSchema>;
  /** The shop's orders table (serviceOrderColumns spread in). */
  orders: SqliteOrdersTable;
}

/** What `drizzle(new Database(file), { schema })` returns. */
export type SqliteDb<TSchema extends Record<string, unknown>> = BetterSQLite3Database<TSchema> & {
  /** The better-sqlite3 connection under it: the adapter queues its transactions on it. */
  $client: Database.Database;
};

/**
 * The shop's own transaction on the connection the adapter uses, in the same queue (BEGIN
 * IMMEDIATE … COMMIT): every write the shop makes on that connection outside the adapter
 * must go through it, or it may land inside an adapter transaction that is open at the time.
 */
export function sqliteTransaction<TSchema extends Record<string, unknown>, T>(
  db: SqliteDb<TSchema>,
  fn: (q: SqliteDb<TSchema>) => Promise<T> | T,
): Promise<T> {
  return onSqliteConnection(db.$client, true, () => fn(db));
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
  return createPorts(
    {
      tables: serviceSchema,
      orders: options.orders,
      transaction: (fn) => onSqliteConnection(db.$client, true, () => fn(db)),
      outside: (fn) => onSqliteConnection(db.$client, false, () => fn(db)),
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

export type { DrizzleServiceAdapter } from "./core.js";
export * from "./sqlite/schema.js";
