// @service-integration/prisma-adapter/sqlite: the adapter on SQLite (Prisma's driver adapter
// @prisma/adapter-better-sqlite3).
import type { ServiceModels } from "./client.js";
import { type AdapterOptions, createPorts, type PrismaServiceAdapter } from "./core.js";

export type { PrismaServiceAdapter } from "./core.js";

/**
 * Every port of the kit that belongs to the integration, on SQLite: SQLite has one writer, so a
 * transaction that plans an order's change from what it read first writes to the order (a
 * no-op UPDATE), which takes the write lock until it commits (SQLite's lock for PostgreSQL's
 * FOR UPDATE); the retry job leases due rows one conditional UPDATE each; `INSERT … ON
 * CONFLICT` for every claim; a unique violation (Prisma's P2002) answered as the kit's
 * ConcurrentWriteError. Give the driver adapter a busy timeout (`timeout`), so another
 * process's writer makes a write wait, not fail.
 */
export function prismaServiceAdapter<Q extends ServiceModels>(
  options: AdapterOptions<Q>,
): PrismaServiceAdapter {
  return createPorts("sqlite", options);
}
