// @service-integration/kysely-adapter/pg: the integration's tables on PostgreSQL (their SQL) and
// the adapter over them, on Kysely's PostgresDialect (node-postgres).
import type { Kysely } from "kysely";
import {
  driverCode,
  type KyselyAdapterOptions,
  type KyselyServiceAdapter,
  kyselyAdapter,
} from "./core.js";

/**
 * Every port of the kit that belongs to the integration, on PostgreSQL through Kysely's
 * PostgresDialect: transactions at READ COMMITTED (the default) on one pooled connection,
 * `SELECT … FOR UPDATE` where the kit plans an order's change from what it read (lockedOrders:
 * findOrderFor, changeOrder, a registration's finish), `FOR UPDATE SKIP LOCKED` where the retry
 * job leases due rows (service-rows.ts leaseDueRegistrations), `INSERT … ON CONFLICT` for every
 * claim, and a unique violation (SQLSTATE 23505) answered as the kit's ConcurrentWriteError.
 */
export function kyselyServiceAdapter<DB>(
  options: KyselyAdapterOptions<DB>,
): KyselyServiceAdapter<DB> {
  const db = options.db as Kysely<unknown>;
  return kyselyAdapter(options, {
    transaction: (fn) => db.transaction().execute(async (trx) => fn(trx)),
    plugins: [],
    forUpdate: (select) => select.forUpdate(),
    skipLocked: (select) => select.forUpdate().skipLocked(),
    isUniqueViolation: (error) => driverCode(error) === "23505",
  });
}

export type { KyselyAdapterOptions, KyselyServiceAdapter } from "./core.js";
export * from "./pg/schema.js";
