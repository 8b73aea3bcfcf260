// drizzle/ against the schema it comes from (lib/schema.ts: the integration's tables, Better
// Auth's and the shop's): the shipped migration is exactly what drizzle-kit generates from it.
// After a change to the schema: `npx drizzle-kit generate` in this folder writes the next one.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pgDdl } from "@service-integration/drizzle-adapter/testing";
import { expect, it } from "vitest";
import * as schema from "./schema";

const drizzleFolder = path.join(import.meta.dirname, "../drizzle");

it("the shipped migrations are what drizzle-kit generates from lib/schema.ts, in one database", async () => {
  const shipped = readdirSync(drizzleFolder)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .flatMap((name) =>
      readFileSync(path.join(drizzleFolder, name), "utf8").split("--> statement-breakpoint"),
    )
    .map((statement) => statement.trim());
  // The same statements; drizzle-kit's CLI orders them by the module's exports, its API by the
  // object given, so both are compared sorted.
  const generated = (await pgDdl({ ...schema })).map((statement) => statement.trim());
  expect([...shipped].sort()).toEqual(generated.sort());
  const tables = shipped.filter((s) => s.startsWith("CREATE TABLE")).join("\n");
  for (const table of ["service_notifications", "session", "account", "orders", "card_payments"])
    expect(tables).toContain(`CREATE TABLE "${table}"`);
});
