// drizzle/ against the schema it comes from (lib/schema.ts: the integration's tables, Better
// Auth's and the shop's): the shipped migration is exactly what drizzle-kit generates from it.
// After a change to the schema: `npx drizzle-kit generate` in this folder writes the next one
// (a deployed shop's database gets it from `npm run db:migrate`).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pgDdl } from "@service-integration/drizzle-adapter/testing";
import { expect, it } from "vitest";
import * as schema from "./schema";

const drizzleFolder = path.join(import.meta.dirname, "../drizzle");

/**
 * The statements as one fresh database would end up: a later migration's `ALTER TABLE … ADD
 * COLUMN` goes into its table's CREATE, and each CREATE's columns are compared as a set (an added
 * column comes last in the database, where the schema may name it earlier).
 */
function asOneDatabase(statements: string[]): string[] {
  const creates = new Map<string, string[]>();
  const others: string[] = [];
  for (const statement of statements) {
    const create = /^CREATE TABLE "([^"]+)" \(\n([\s\S]*)\n\);$/.exec(statement);
    const added = /^ALTER TABLE "([^"]+)" ADD COLUMN (.+);$/.exec(statement);
    if (create?.[1] && create[2] !== undefined) {
      creates.set(
        create[1],
        create[2].split("\n").map((line) => line.trim().replace(/,$/, "")),
      );
    } else if (added?.[1] && added[2]) creates.get(added[1])?.push(added[2]);
    else others.push(statement);
  }
  const tables = [...creates].map(([name, columns]) => `${name}: ${columns.sort().join("; ")}`);
  return [...tables, ...others].sort();
}

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
  expect(asOneDatabase(shipped)).toEqual(asOneDatabase(generated));
  const tables = shipped.filter((s) => s.startsWith("CREATE TABLE")).join("\n");
  for (const table of ["service_notifications", "session", "account", "orders", "card_payments"])
    expect(tables).toContain(`CREATE TABLE "${table}"`);
});
