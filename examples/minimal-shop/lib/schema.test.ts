// The migrations of drizzle/ against the schema they come from (lib/schema.ts: the shop's
// tables and the adapter's): applied, they make exactly the tables drizzle-kit generates from it.
// `MINI_WRITE_MIGRATION=1 npx vitest run examples/minimal-shop/lib/schema.test.ts` rewrites
// drizzle/0000_init.sql after a change to the schema (this shop has no data to migrate yet).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { freshSqliteDatabase, sqliteDdl } from "@service-integration/drizzle-adapter/testing";
import type Database from "better-sqlite3";
import { expect, it } from "vitest";
import { openDatabase } from "./db";
import * as schema from "./schema";

const drizzleFolder = path.join(import.meta.dirname, "../drizzle");
const tables = (client: Database.Database) =>
  client
    .prepare(
      "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE '%drizzle%' ORDER BY name",
    )
    .all();

it("the migrations make the tables of lib/schema.ts, the adapter's among them", async () => {
  const ddl = await sqliteDdl({ ...schema });
  if (process.env.MINI_WRITE_MIGRATION) {
    writeFileSync(
      `${drizzleFolder}/0000_init.sql`,
      `${ddl.join("\n--> statement-breakpoint\n")}\n`,
    );
  }
  const migrated = openDatabase(":memory:", drizzleFolder).$client;
  expect(tables(migrated)).toEqual(tables(await freshSqliteDatabase(ddl)));
  expect(tables(migrated).map((t) => (t as { name: string }).name)).toContain(
    "service_notifications",
  );
});
