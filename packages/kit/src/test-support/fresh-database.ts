import type { ConformanceHost, MakeConformanceHost } from "./shop-ports-conformance.js";

/** How a host makes, wires and removes one database of its own for one conformance check. */
export interface FreshDatabase<Db> {
  /** A new, empty database with the host's tables (in memory, a new file, a new PostgreSQL
   *  database…), never one another check used. */
  open(): Promise<Db> | Db;
  /** The host's ports over `db`; its own `close`, if any, runs before `dispose`. */
  host(db: Db): Promise<ConformanceHost> | ConformanceHost;
  /** Removes the database (closes its client, drops it, deletes its file). */
  dispose(db: Db): Promise<void> | void;
}

/**
 * The conformance suite's host factory with a fresh database per check: each check opens its own
 * database, wires the host over it, and the database is disposed of when the check ends, even
 * when wiring the host or its own close failed. Checks never see one another's rows, so a check
 * that passes alone passes in the suite:
 *
 *   runShopPortsConformance(freshDatabasePerCheck({ open, host, dispose }), "my shop");
 */
export function freshDatabasePerCheck<Db>(fresh: FreshDatabase<Db>): MakeConformanceHost {
  return async () => {
    const db = await fresh.open();
    let host: ConformanceHost;
    try {
      host = await fresh.host(db);
    } catch (error) {
      await fresh.dispose(db);
      throw error;
    }
    const ownClose = host.close;
    return {
      ...host,
      async close() {
        try {
          await ownClose?.call(host);
        } finally {
          await fresh.dispose(db);
        }
      },
    };
  };
}
