// @service-integration/kysely-adapter/testing: for a shop's tests, never for production code.
// A new database per conformance check (the kit's freshDatabasePerCheck), made from SQL: this
// package's tables (the same statements /pg and /sqlite export for migrations) and the shop's
// own. Each driver is loaded when first used, so a shop on one database needs only its own.

import type BetterSqlite3 from "better-sqlite3";

export {
  serviceOrderColumnsSql as pgServiceOrderColumnsSql,
  serviceTablesSql as pgServiceTablesSql,
} from "./pg/schema.js";
export {
  serviceOrderColumnsSql as sqliteServiceOrderColumnsSql,
  serviceTablesSql as sqliteServiceTablesSql,
} from "./sqlite/schema.js";

let made = 0;

/** Connects to `url`, runs `fn` with the client, disconnects. */
async function onPostgres(url: string, fn: (client: import("pg").Client) => Promise<unknown>) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await fn(client);
  } finally {
    await client.end();
  }
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

/**
 * A new database on the PostgreSQL cluster of `adminUrl` (a role allowed to CREATE DATABASE)
 * with `statements` run in it (/pg's serviceTablesSql and the shop's own), `empty`, which
 * reuses it for the next check (one database per test file: the kit's oneDatabasePerSuite), and
 * `drop`, which removes it once every connection to it has closed (end your pool first).
 */
export async function freshPostgresDatabase(adminUrl: string, statements: readonly string[]) {
  made += 1;
  const name = `kysely_adapter_${process.pid}_${made}_${Date.now().toString(36)}`;
  await onPostgres(adminUrl, (admin) => admin.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await onPostgres(url.toString(), async (c) => {
    for (const statement of statements) await c.query(statement);
  });
  // Not forced: a pool's end() resolves before the server has seen its connections close, and a
  // failed check's leftover work may hold one (a forced drop ends it with an uncaught error).
  const drop = () =>
    onPostgres(adminUrl, async (admin) => {
      const open = "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1";
      while ((await admin.query(open, [name])).rows[0].n > 0) await new Promise(setImmediate);
      await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
    });
  return {
    /** The new database's connection string (the admin URL with the new database's name). */
    url: url.toString(),
    /** Empties every table and restarts the sequences (EMPTY_POSTGRES_TABLES), in one
     *  statement; it waits for any transaction still holding a row. */
    empty: () => onPostgres(url.toString(), (c) => c.query(EMPTY_POSTGRES_TABLES)),
    /** Drops the database once no connection to it is left. */
    drop,
  };
}

/** A new SQLite database (in memory, or the new file `filename`) with `statements` run in it
 *  (/sqlite's serviceTablesSql and the shop's own). */
export async function freshSqliteDatabase(
  statements: readonly string[],
  filename = ":memory:",
): Promise<BetterSqlite3.Database> {
  const connection = new (await import("better-sqlite3")).default(filename);
  connection.exec(statements.map((statement) => `${statement};`).join("\n"));
  return connection;
}
