// @service-integration/prisma-adapter/pg: the adapter on PostgreSQL (Prisma's driver adapter
// @prisma/adapter-pg, or any PostgreSQL client of Prisma 6.19).
import type { ServiceModels } from "./client.js";
import { type AdapterOptions, createPorts, type PrismaServiceAdapter } from "./core.js";

export type { PrismaServiceAdapter } from "./core.js";

/**
 * Every port of the kit that belongs to the integration, on PostgreSQL: interactive
 * transactions at READ COMMITTED (the default), `SELECT … FOR UPDATE` on the shop's Order rows
 * where an order's change is planned from what was read (findOrderFor, changeOrder, a
 * registration's finish), `FOR UPDATE SKIP LOCKED` where the retry job leases due rows,
 * `INSERT … ON CONFLICT` for every claim, and a unique violation (Prisma's P2002) answered as
 * the kit's ConcurrentWriteError.
 */
export function prismaServiceAdapter<Q extends ServiceModels>(
  options: AdapterOptions<Q>,
): PrismaServiceAdapter {
  return createPorts("postgresql", options);
}
