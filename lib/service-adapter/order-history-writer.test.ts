// Order history has one writer: the kit's createServiceAdapter (writeOrderChange,
// recordNewOrder) over each adapter's row store (its `insertHistory`). The shop's own order
// changes go through it too (./order-history.ts). A scan of the source: any other module that
// writes the history model (Prisma's OrderStatusChange, Drizzle's serviceOrderHistory, or raw
// SQL on either table) fails this test.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const SCANNED = ["lib", "app", "packages", "examples"];
const SKIPPED = /(^|\/)(node_modules|dist|generated|generated-pg|\.next|test-support|e2e)(\/|$)/;

/** Writes of the order history, as each data layer spells them. */
const WRITES = [
  /orderStatusChange\s*\.\s*(create|createMany|update|updateMany|upsert|delete|deleteMany)\b/,
  /\.\s*(insert|update|delete)\s*\(\s*serviceOrderHistory\b/,
  /(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(OrderStatusChange|service_order_history)"?/i,
  // The row store's one history write, and the kit's call of it.
  /\binsertHistory\b/,
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (SKIPPED.test(path.relative(root, file))) return [];
    if (entry.isDirectory()) return sources(file);
    return /\.(ts|tsx|mts|mjs|js)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)
      ? [file]
      : [];
  });
}

/** The modules whose source writes the order history. */
function historyWriters(): string[] {
  return SCANNED.flatMap((dir) => sources(path.join(root, dir)))
    .filter((file) => WRITES.some((write) => write.test(readFileSync(file, "utf8"))))
    .map((file) => path.relative(root, file))
    .sort();
}

describe("the order history", () => {
  it("is written only by the kit's writer over the adapters' row stores", () => {
    expect(historyWriters()).toEqual([
      "packages/drizzle-adapter/src/core.ts",
      "packages/kit/src/service-adapter.ts",
      "packages/kit/src/service-rows.ts",
      "packages/prisma-adapter/src/core.ts",
    ]);
  });
});
