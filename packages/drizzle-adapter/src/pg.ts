// @service-integration/drizzle-adapter/pg: the integration's tables on PostgreSQL and the
// adapter over them (node-postgres).
import type { ServiceAdapterOptions } from "@service-integration/kit";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { NodePgDatabase, NodePgQueryResultHKT } from "drizzle-orm/node-postgres";
import type { AnyPgColumn, PgDatabase, PgTable } from "drizzle-orm/pg-core";
import { createPorts, type DrizzleServiceAdapter, driverCode } from "./core.js";
import { type serviceOrderColumns, serviceSchema } from "./pg/schema.js";

/** A database or transaction of the shop's node-postgres Drizzle database: what the shop's
 *  callbacks are given (inside a Service Pay transaction, that transaction). */
export type PgQueries<TSchema extends Record<string, unknown> = Record<string, unknown>> =
  PgDatabase<NodePgQueryResultHKT, TSchema, ExtractTablesWithRelations<TSchema>>;

/** The shop's orders table: its `id` and `number`, and the spread serviceOrderColumns(). */
export type PgOrdersTable = PgTable & {
  [K in keyof ReturnType<typeof serviceOrderColumns> | "id" | "number"]: AnyPgColumn;
};

/** drizzleServiceAdapter's options on PostgreSQL: the kit's (callbacks, sealer), db, orders. */
export interface PgAdapterOptions<TSchema extends Record<string, unknown>>
  extends ServiceAdapterOptions<PgQueries<TSchema>> {
  /** The shop's Drizzle database on node-postgres (a Pool: transactions take a client each). */
  db: NodePgDatabase<TSchema>;
  /** The shop's orders table (serviceOrderColumns spread in). */
  orders: PgOrdersTable;
}

/**
 * Every port of the kit that belongs to the integration, on PostgreSQL through node-postgres:
 * transactions at READ COMMITTED (the default), `SELECT … FOR UPDATE` where an order's change
 * is planned from what was read (findOrderFor, changeOrder, a registration's finish), `FOR
 * UPDATE SKIP LOCKED` where the retry job leases due rows, `INSERT … ON CONFLICT` for every
 * claim, and a unique violation (SQLSTATE 23505) answered as the kit's ConcurrentWriteError.
 */
export function drizzleServiceAdapter<TSchema extends Record<string, unknown>>(
  options: PgAdapterOptions<TSchema>,
): DrizzleServiceAdapter {
  const { db } = options;
  return createPorts(
    {
      tables: serviceSchema,
      orders: options.orders,
      transaction: (fn) => db.transaction((tx) => fn(tx)),
      outside: (fn) => fn(db),
      locked: (select, lock) =>
        (select as { for(s: string, o?: object): typeof select }).for(
          "update",
          lock?.skipLocked ? { skipLocked: true } : undefined,
        ),
      isUniqueViolation: (error) => driverCode(error) === "23505",
    },
    options,
  );
}

export type { DrizzleServiceAdapter } from "./core.js";
export * from "./pg/schema.js";
