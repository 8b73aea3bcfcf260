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

/** How a host makes one database for a whole suite, empties it between checks, and wires a host
 *  over it for each check (oneDatabasePerSuite). `Host` is the conformance suite's host unless
 *  a test file's own checks want something else over the database (their `close` ends it). */
export interface SharedDatabase<Db, Host extends CheckHost = ConformanceHost> {
  /** A new database with the host's tables, made once for the suite (its first check). */
  open(): Promise<Db> | Db;
  /** Puts `db` back as `open` made it, before every check after the first: no row of an earlier
   *  check left (every table emptied, sequences restarted). The earlier check's own connections
   *  have been closed by then (its host's `close`); wait for the server to see them gone when
   *  the database keeps anything per connection (locks, advisory locks). */
  empty(db: Db): Promise<void> | void;
  /** The host's ports over `db` for one check, with connections of the check's own: its `close`
   *  closes them (the check's open transactions and session locks end with them). */
  host(db: Db): Promise<Host> | Host;
  /** Removes the database once the suite is done (drops it, deletes its file). */
  dispose(db: Db): Promise<void> | void;
}

/** A host factory whose hosts share one database (oneDatabasePerSuite's): runShopPortsConformance
 *  calls `open` before the suite's first check and `dispose` after its last. */
export type SuiteConformanceHost = MakeConformanceHost & SuiteDatabase;

/** What a check's host over a shared database needs: a `close` that ends the check's own
 *  connections (oneDatabasePerSuite empties the database for the next check after it). */
export interface CheckHost {
  /** Ends the check's own connections (its open transactions and locks with them). */
  close?(): Promise<void>;
}

/** The database side of a host factory over one database (oneDatabasePerSuite's). */
export interface SuiteDatabase {
  /** Makes the database now (else the first check makes it, inside its own time limit). */
  open(): Promise<void>;
  /** Removes the database once the last check's host has closed. */
  dispose(): Promise<void>;
}

/** oneDatabasePerSuite's host factory for a test file's own checks (a `Host` of their own). */
export type SuiteHost<Host extends CheckHost> = (() => Promise<Host>) & SuiteDatabase;

/**
 * The conformance suite's host factory with one database for the whole suite, emptied between
 * checks: the cost of making a database and its tables (a CREATE DATABASE and the DDL, about a
 * second a check on a loaded machine) is paid once per suite instead of once per check, and a
 * check still starts on empty tables, so it never sees another check's rows. Each check gets a
 * host (and connections) of its own; the next check starts only once the previous one's host is
 * closed and the database emptied, so checks never share the database at the same time. Run
 * each suite (each test file) on a database of its own: files run in parallel.
 *
 *   runShopPortsConformance(oneDatabasePerSuite({ open, empty, host, dispose }), "my shop");
 *
 * runShopPortsConformance opens the database before the first check and disposes of it after
 * the last; with shopPortsConformanceChecks call `dispose()` yourself once every check has run.
 */
export function oneDatabasePerSuite<Db>(shared: SharedDatabase<Db>): SuiteConformanceHost;
export function oneDatabasePerSuite<Db, Host extends CheckHost>(
  shared: SharedDatabase<Db, Host>,
): SuiteHost<Host>;
export function oneDatabasePerSuite<Db, Host extends CheckHost>(
  shared: SharedDatabase<Db, Host>,
): SuiteHost<Host> {
  let opened: Promise<Db> | undefined;
  const open = () => {
    opened ??= Promise.resolve().then(() => shared.open());
    return opened;
  };
  // Whether a check has had the database: the next one empties it first.
  let used = false;
  // The checks take turns: each waits for the previous one's host to close (`turn`), so the
  // emptying never runs under a check, also when a runner starts checks concurrently.
  let turn: Promise<void> = Promise.resolve();
  const make = async (): Promise<Host> => {
    const before = turn;
    let ended!: () => void;
    turn = new Promise<void>((resolve) => {
      ended = resolve;
    });
    try {
      await before;
      const db = await open();
      if (used) await shared.empty(db);
      used = true;
      const host = await shared.host(db);
      const ownClose = host.close;
      let closed = false;
      return {
        ...host,
        async close() {
          if (closed) return;
          closed = true;
          try {
            await ownClose?.call(host);
          } finally {
            ended();
          }
        },
      };
    } catch (error) {
      ended();
      throw error;
    }
  };
  return Object.assign(make, {
    async open() {
      await open();
    },
    async dispose() {
      await turn;
      if (!opened) return;
      let db: Db;
      try {
        db = await opened;
      } catch {
        return; // never opened: nothing to remove (the checks reported why)
      } finally {
        opened = undefined;
        used = false;
      }
      await shared.dispose(db);
    },
  });
}

/** One statement that empties every table of the current schema and restarts its sequences:
 *  DELETE of each table, the tables others refer to after them (their foreign keys; TRUNCATE …
 *  CASCADE only for tables in a cycle), and setval of every sequence to its start. A database
 *  as its DDL made it, for the next check. DELETE, not TRUNCATE: on the few rows a check
 *  leaves it takes about 1 ms where a TRUNCATE of some 20 tables takes 150 ms (new files for
 *  every table and index). Like any write, it waits for a transaction still holding a row. */
export const EMPTY_POSTGRES_TABLES = `DO $$
DECLARE
  remaining regclass[];
  ready regclass[];
  t regclass;
BEGIN
  SELECT coalesce(array_agg(c.oid::regclass), '{}') INTO remaining FROM pg_class c
    WHERE c.relkind IN ('r', 'p') AND c.relnamespace = current_schema()::regnamespace;
  WHILE cardinality(remaining) > 0 LOOP
    SELECT coalesce(array_agg(r), '{}') INTO ready FROM unnest(remaining) r
      WHERE NOT EXISTS (SELECT FROM pg_constraint k WHERE k.contype = 'f' AND k.confrelid = r
        AND k.conrelid <> r AND k.conrelid = ANY (remaining));
    IF cardinality(ready) = 0 THEN
      EXECUTE 'TRUNCATE ' || array_to_string(remaining, ', ') || ' CASCADE';
      EXIT;
    END IF;
    FOREACH t IN ARRAY ready LOOP
      EXECUTE format('DELETE FROM %s', t);
    END LOOP;
    remaining := array(SELECT r FROM unnest(remaining) r WHERE r <> ALL (ready));
  END LOOP;
  PERFORM setval(format('%I.%I', schemaname, sequencename), start_value, false)
    FROM pg_sequences WHERE schemaname = current_schema();
END $$`;

/** What emptySqliteDatabase needs of a SQLite connection (a better-sqlite3 Database has it). */
export interface SqliteConnection {
  /** Runs statements, separated by semicolons. */
  exec(sql: string): unknown;
  /** A statement to run. */
  prepare(sql: string): {
    /** Its rows, as objects by column name. */
    all(): unknown[];
  };
}

/**
 * Empties every table of a SQLite database through `connection`, in one transaction, and
 * restarts its AUTOINCREMENT counters (sqlite_sequence): a database as its migrations made it,
 * for oneDatabasePerSuite's `empty`. Foreign keys are off while it deletes (so no order is
 * needed) and put back as they were.
 */
export function emptySqliteDatabase(connection: SqliteConnection): void {
  const names = (
    connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[]
  ).map((row) => row.name);
  const tables = names.filter((name) => !name.startsWith("sqlite_"));
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const [keys] = connection.prepare("PRAGMA foreign_keys").all() as { foreign_keys: number }[];
  connection.exec(
    [
      "PRAGMA foreign_keys = OFF",
      "BEGIN",
      ...tables.map((name) => `DELETE FROM ${quoted(name)}`),
      ...(names.includes("sqlite_sequence") ? ["DELETE FROM sqlite_sequence"] : []),
      "COMMIT",
      `PRAGMA foreign_keys = ${keys?.foreign_keys ? "ON" : "OFF"}`,
    ].join(";\n"),
  );
}
