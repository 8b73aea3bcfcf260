// Vitest global setup for TEST_DATABASE=postgresql: starts the project's PostgreSQL cluster
// (scripts/postgres.mjs) and builds a template database from the PostgreSQL migrations once;
// each test file then gets its own copy (lib/db/test-db.ts, openTestDatabase).
import path from "node:path";
import pg from "pg";
import { migrationScripts, POSTGRES_TEST_TEMPLATE } from "../test-support/test-db";
import { postgresUrl, resetDatabases, startPostgres, stopPostgres } from "./postgres.mjs";

export default async function setup() {
  const started = startPostgres();
  await resetDatabases([POSTGRES_TEST_TEMPLATE]);
  const client = new pg.Client({ connectionString: postgresUrl(POSTGRES_TEST_TEMPLATE) });
  await client.connect();
  try {
    const folder = path.resolve(import.meta.dirname, "../prisma/postgresql/migrations");
    for (const script of migrationScripts(folder)) await client.query(script);
  } finally {
    await client.end();
  }
  process.env.TEST_POSTGRES_URL = postgresUrl("postgres");
  // Teardown: stop the cluster again if this run started it.
  return () => {
    if (started) stopPostgres();
  };
}
