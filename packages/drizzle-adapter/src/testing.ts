// @service-integration/drizzle-adapter/testing: for a shop's tests, never for production code.
// Fresh databases with the integration's tables and the shop's own, their DDL generated from the
// Drizzle schema by drizzle-kit's programmatic API (never a second, hand-written copy of the
// tables), so a shop runs the kit's conformance suite on its wiring of this adapter, each check
// on a database of its own. Needs drizzle-kit (an optional peer) and the database's driver
// (each loaded when first used, so a shop on one database needs only its own).
import type Database from "better-sqlite3";
import {
  generateDrizzleJson,
  generateMigration,
  generateSQLiteDrizzleJson,
  generateSQLiteMigration,
} from "drizzle-kit/api";

/** CREATE statements for PostgreSQL of every table in `tables` (e.g. serviceSchema and the
 *  shop's own tables). */
export async function pgDdl(tables: Record<string, unknown>): Promise<string[]> {
  return generateMigration(generateDrizzleJson({}), generateDrizzleJson(tables));
}

/** CREATE statements for SQLite of every table in `tables`. */
export async function sqliteDdl(tables: Record<string, unknown>): Promise<string[]> {
  return generateSQLiteMigration(
    await generateSQLiteDrizzleJson({}),
    await generateSQLiteDrizzleJson(tables),
  );
}

async function onPostgres(url: string, statements: string[]): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

let databases = 0;

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
 * with `statements` applied (pgDdl's), `empty` to reuse it for the next check (one database per
 * test file: the kit's oneDatabasePerSuite) and `drop` to remove it again once every connection
 * to it has closed (end your pool first).
 */
export async function freshPostgresDatabase(
  adminUrl: string,
  statements: string[],
): Promise<{
  /** The new database's connection string (the admin URL with the new database's name). */
  url: string;
  /** Empties every table and restarts the sequences (EMPTY_POSTGRES_TABLES), in one
   *  statement; it waits for any transaction still holding a row. */
  empty(): Promise<void>;
  /** Drops the database once no connection to it is left. */
  drop(): Promise<void>;
}> {
  databases += 1;
  const name = `drizzle_adapter_${process.pid}_${databases}_${Date.now().toString(36)}`;
  await onPostgres(adminUrl, [`CREATE DATABASE "${name}"`]);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await onPostgres(url.toString(), statements);
  return {
    url: url.toString(),
    empty: () => onPostgres(url.toString(), [EMPTY_POSTGRES_TABLES]),
    async drop() {
      // A pool's end() resolves before its connections have closed: wait until the database has
      // no backend left, so the drop ends none (its client would report that as an error).
      const { default: pg } = await import("pg");
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      try {
        const backends = "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1";
        while ((await admin.query<{ n: number }>(backends, [name])).rows[0]?.n) {
          await new Promise<void>((r) => setImmediate(r));
        }
        await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
      } finally {
        await admin.end();
      }
    },
  };
}

/** A new SQLite database (in memory, or the new file `filename`) with `statements` applied
 *  (sqliteDdl's). */
export async function freshSqliteDatabase(
  statements: string[],
  filename = ":memory:",
): Promise<Database.Database> {
  const { default: Sqlite } = await import("better-sqlite3");
  const client = new Sqlite(filename);
  for (const statement of statements) client.exec(statement);
  return client;
}
