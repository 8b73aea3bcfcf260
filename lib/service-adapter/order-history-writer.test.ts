// Order history has one writer: the kit's createServiceAdapter (writeOrderChange,
// recordNewOrder) over each adapter's row store, whose `insertHistory` is the only statement
// that writes the table. The shop's own order changes (card checkout, back office) get that
// writer passed in (lib/shop/orders.ts OrderWriter; lib/service-adapter/service.ts orderWriter).
// A scan of the source: any other module that writes the history (Prisma's OrderStatusChange,
// Drizzle's and Kysely's serviceOrderHistory, raw SQL on either table) or calls the row store's
// `insertHistory` fails this test.
import { type Dirent, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
/** Folders and files of production source (and of scripts, which seed benchmark databases). */
const SCANNED = ["app", "lib", "packages", "examples", "prisma", "scripts", "test-support"];
const SKIPPED = /(^|\/)(node_modules|dist|generated|generated-pg|\.next|\.postgres)(\/|$)/;

const PRISMA_WRITE =
  /\borderStatusChange["']?\s*\]?\s*\.\s*(create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany)\b/;
const SQL_WRITE =
  /\b(INSERT(\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE|DELETE\s+FROM)\s+["`]?(OrderStatusChange|service_order_history)\b/i;
const ROW_STORE_CALL = /\.\s*insertHistory\s*\(/;

function sources(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (SKIPPED.test(path.relative(root, file))) return [];
    if (entry.isDirectory()) return sources(file);
    return /\.(ts|tsx|mts|cts|mjs|cjs|js)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)
      ? [file]
      : [];
  });
}

/** Whether `text` writes Drizzle's history table: its schema object by name, or by a name it
 *  was given (`serviceOrderHistory: H`, `as H`, `const H = schema.serviceOrderHistory`). */
function drizzleWrite(text: string): boolean {
  const names = new Set(["serviceOrderHistory"]);
  for (const m of text.matchAll(/\bserviceOrderHistory\s*(?::|\bas\b)\s*(\w+)/g))
    names.add(m[1] as string);
  for (const m of text.matchAll(/\b(\w+)\s*=\s*(?:[\w.]+\.)?serviceOrderHistory\b/g))
    names.add(m[1] as string);
  return [...names].some((name) =>
    new RegExp(`\\.\\s*(insert|update|delete)\\s*\\(\\s*${name}\\s*\\)`).test(text),
  );
}

/** Whether `text` writes the history table through Kysely: the table's name in its `Database`
 *  type ("serviceOrderHistory"), written out or bound to a name (`const H = "serviceOrderHistory"`). */
function kyselyWrite(text: string): boolean {
  const names = ['"serviceOrderHistory"', "'serviceOrderHistory'", "`serviceOrderHistory`"];
  for (const m of text.matchAll(/\b(\w+)\s*=\s*["'`]serviceOrderHistory["'`]/g))
    names.push(m[1] as string);
  return names.some((name) =>
    new RegExp(
      `\\.\\s*(insertInto|replaceInto|updateTable|deleteFrom|mergeInto)\\s*\\(\\s*${name}\\s*[,)]`,
    ).test(text),
  );
}

const texts = () =>
  [...SCANNED.flatMap((dir) => sources(path.join(root, dir))), path.join(root, "proxy.ts")]
    .map((file) => ({ file: path.relative(root, file), text: readFileSync(file, "utf8") }))
    .sort((a, b) => a.file.localeCompare(b.file));

describe("the order history", () => {
  const all = texts();

  it("is written by the adapters' row stores only (and benchmark seeds)", () => {
    const writers = all
      .filter(
        ({ text }) =>
          PRISMA_WRITE.test(text) ||
          SQL_WRITE.test(text) ||
          drizzleWrite(text) ||
          kyselyWrite(text),
      )
      .map(({ file }) => file);
    expect(writers).toEqual([
      // Each row store's insertHistory (the kit's service-rows.ts).
      "packages/drizzle-adapter/src/core.ts",
      "packages/kysely-adapter/src/core.ts",
      "packages/prisma-adapter/src/core.ts",
      // A benchmark's database seeded before its server starts (no shop running).
      "scripts/bench-cluster.mjs",
      "scripts/lib/bench-database.mjs",
    ]);
  });

  it("is asked of the row store by the kit's writer only", () => {
    const callers = all.filter(({ text }) => ROW_STORE_CALL.test(text)).map(({ file }) => file);
    expect(callers).toEqual(["packages/kit/src/service-adapter.ts"]);
  });

  it("the scan sees each way of writing it", () => {
    expect(PRISMA_WRITE.test("await tx.orderStatusChange.create({ data })")).toBe(true);
    expect(PRISMA_WRITE.test('db["orderStatusChange"].deleteMany()')).toBe(true);
    expect(PRISMA_WRITE.test("tx.orderStatusChange.findMany({ where })")).toBe(false);
    expect(SQL_WRITE.test('INSERT INTO "OrderStatusChange" (id) VALUES (1)')).toBe(true);
    expect(SQL_WRITE.test("delete from service_order_history where 1")).toBe(true);
    expect(SQL_WRITE.test('SELECT * FROM "OrderStatusChange"')).toBe(false);
    expect(drizzleWrite("q.insert(serviceOrderHistory).values(row)")).toBe(true);
    expect(drizzleWrite("const { serviceOrderHistory: H } = t; q.insert(H).values(row)")).toBe(
      true,
    );
    expect(drizzleWrite("q.select().from(serviceOrderHistory)")).toBe(false);
    expect(kyselyWrite('db.insertInto("serviceOrderHistory").values(row)')).toBe(true);
    expect(kyselyWrite('const H = "serviceOrderHistory"; q.deleteFrom(H).execute()')).toBe(true);
    expect(kyselyWrite('db.selectFrom("serviceOrderHistory").selectAll()')).toBe(false);
    expect(ROW_STORE_CALL.test("await store.insertHistory(q, row)")).toBe(true);
  });
});
