// @service-integration/kysely-adapter/testing: for a shop's tests, never for production code.
// A new database per conformance check (the kit's freshDatabasePerCheck), made from SQL: this
// package's tables (the same statements /pg and /sqlite export for migrations) and the shop's
// own. Each driver is loaded when first used, so a shop on one database needs only its own.
import type Database from "better-sqlite3";
import {
  serviceOrderColumnsSql as pgOrderColumns,
  serviceTablesSql as pgTables,
} from "./pg/schema.js";
import {
  serviceOrderColumnsSql as sqliteOrderColumns,
  serviceTablesSql as sqliteTables,
} from "./sqlite/schema.js";

/** The integration's CREATE statements per database, and its columns of the shop's orders. */
export const serviceSql = {
  postgresql: { tables: pgTables, orderColumns: pgOrderColumns },
  sqlite: { tables: sqliteTables, orderColumns: sqliteOrderColumns },
} as const;

let made = 0;

/**
 * A new database on the PostgreSQL cluster of `adminUrl` (a role allowed to CREATE DATABASE)
 * with `statements` run in it (serviceSql.postgresql.tables and the shop's own), and `drop`,
 * which removes it once every connection to it has closed (end your pool first).
 */
export async function freshPostgresDatabase(
  adminUrl: string,
  statements: readonly string[],
): Promise<{ url: string; drop(): Promise<void> }> {
  const { default: pg } = await import("pg");
  const run = async (url: string, sqls: readonly string[]) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const statement of sqls) await client.query(statement);
    } finally {
      await client.end();
    }
  };
  made += 1;
  const name = `kysely_adapter_${process.pid}_${made}_${Date.now().toString(36)}`;
  await run(adminUrl, [`CREATE DATABASE "${name}"`]);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await run(url.toString(), statements);
  return {
    url: url.toString(),
    async drop() {
      // Once no connection to it is left: a pool's end() resolves before the server has seen
      // its connections close, and work a failed check left running still holds one (a forced
      // drop would end it with an error nobody catches).
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      try {
        const open = async () =>
          (
            await admin.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1",
              [name],
            )
          ).rows[0]?.n;
        while ((await open()) !== 0) await new Promise<void>((r) => setImmediate(r));
        await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
      } finally {
        await admin.end();
      }
    },
  };
}

/** A new SQLite database (in memory, or the new file `filename`) with `statements` run in it
 *  (serviceSql.sqlite.tables and the shop's own). */
export async function freshSqliteDatabase(
  statements: readonly string[],
  filename = ":memory:",
): Promise<Database.Database> {
  const { default: Sqlite } = await import("better-sqlite3");
  const connection = new Sqlite(filename);
  for (const statement of statements) connection.exec(statement);
  return connection;
}
