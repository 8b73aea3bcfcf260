// What the adapter's storeBatch (the webhook's one INSERT … ON CONFLICT DO NOTHING RETURNING in
// one transaction) allocates and costs per commit and per row, alone in one process, on SQLite:
// a fresh temporary file with the shipped migrations, WAL and synchronous = FULL as the shop
// runs it (docs/decisions/webhook-storage.md, "2026-11-29, morning"). Bytes allocated are V8's
// heap growth between collections (v8.GCProfiler, as scripts/lib/alloc-window.cjs counts them):
// a count a busy machine moves far less than a time. Then the floor: the same rows through
// better-sqlite3 alone (below), so what Prisma adds to each row is a printed figure.
//
//   npx tsx --conditions=react-server packages/prisma-adapter/scripts/bench-store-batch.ts [commits per size=300] [sizes=1,8,33,100]
//
// BENCH_TIMESTAMP_FORMAT=unixepoch-ms runs the driver adapter with that timestampFormat.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import v8 from "node:v8";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { type OrderNotification, parseOrderNotification } from "@service-integration/kit";
import { createTokenSealer } from "@service-integration/kit/server";
import Database from "better-sqlite3";
import { prismaServiceAdapter } from "../src/sqlite.js";
import { PrismaClient } from "../src/test-support/generated/sqlite/client.js";
import { testShopCallbacks } from "../src/test-support/shop-callbacks.js";
import { MIGRATIONS } from "./prisma-tools.mjs";

const COMMITS = Number(process.argv[2] ?? 300);
const SIZES = (process.argv[3] ?? "1,8,33,100").split(",").map(Number);
const WARM_UP = 50;

const here = path.resolve(import.meta.dirname, "..");
const dir = mkdtempSync(path.join(tmpdir(), "bench-store-batch-"));
const file = path.join(dir, "bench.db");
const raw = new Database(file);
for (const name of MIGRATIONS)
  raw.exec(
    readFileSync(path.join(here, "prisma/sqlite/migrations", name, "migration.sql"), "utf8"),
  );
raw.pragma("journal_mode = WAL");
raw.close();

const timestampFormat = (process.env.BENCH_TIMESTAMP_FORMAT || undefined) as
  | "unixepoch-ms"
  | undefined;
const db = new PrismaClient({
  adapter: new PrismaBetterSQLite3({ url: `file:${file}`, timeout: 5000 }, { timestampFormat }),
});
await db.$executeRawUnsafe("PRAGMA synchronous = FULL");
const adapter = prismaServiceAdapter({
  db,
  shop: testShopCallbacks(db),
  sealer: createTokenSealer("k".repeat(32)),
});

let n = 0;
/** A payment notification as the bench's deliveries carry it (scripts/lib/webhook-deliveries.mjs),
 *  parsed as the webhook parses it. */
function notification(): OrderNotification {
  n += 1;
  const id = `wh_${String(n).padStart(8, "0")}`;
  const order = n % 20_000;
  const body = JSON.stringify({
    id,
    event: "order.payment_completed",
    created_at: new Date(1_790_000_000_000 + n).toISOString(),
    order_id: `svc-${order}`,
    cart_id: `bench-cart-${order}`,
    status: "payment_completed",
    amount: 12_300,
    currency: "EUR",
    trade_in_discount: 5_000,
    customer_id: null,
  });
  return parseOrderNotification(new TextEncoder().encode(body));
}

async function commits(size: number, count: number) {
  // Made before the window: the notifications are the route's, not the store's.
  const batches = Array.from({ length: count }, () => Array.from({ length: size }, notification));
  const profiler = new v8.GCProfiler();
  let last = v8.getHeapStatistics().used_heap_size;
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  profiler.start();
  for (const batch of batches) {
    const ids = await adapter.servicePay.storeBatch(batch);
    if (ids.some((id) => id === null)) throw new Error("a fresh notification was not stored");
  }
  const { statistics } = profiler.stop();
  const wallUs = Number(process.hrtime.bigint() - start) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  let allocated = 0;
  for (const gc of statistics) {
    allocated += Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - last);
    last = gc.afterGC.heapStatistics.usedHeapSize;
  }
  allocated += Math.max(0, v8.getHeapStatistics().used_heap_size - last);
  return { allocated, wallUs, cpuUs: user + system };
}

console.log(
  `storeBatch on SQLite (${timestampFormat ?? "iso8601"}), ${COMMITS} commits per size after ${WARM_UP} to warm up`,
);
console.log("rows/commit  KB/commit  KB/row  µs/row (wall)  CPU µs/row");
for (const size of SIZES) {
  await commits(size, WARM_UP);
  const { allocated, wallUs, cpuUs } = await commits(size, COMMITS);
  const rows = size * COMMITS;
  console.log(
    [
      String(size).padStart(11),
      (allocated / 1024 / COMMITS).toFixed(1).padStart(10),
      (allocated / 1024 / rows).toFixed(2).padStart(7),
      (wallUs / rows).toFixed(1).padStart(14),
      (cpuUs / rows).toFixed(1).padStart(11),
    ].join("  "),
  );
}

// The floor: the same rows, one multi-row INSERT … ON CONFLICT DO NOTHING RETURNING in BEGIN
// IMMEDIATE … COMMIT, through better-sqlite3 alone on a second connection to the same file
// (prepared once per batch size, as the adapter's statement text changes with the size). What
// storeBatch costs above it is Prisma's (its interactive transaction, the query compiler's pass
// over the statement and its parameters, the interpreter, the driver adapter's mapping) and the
// kit's own rows.
const driver = new Database(file);
driver.pragma("synchronous = FULL");
// The table's columns that a new row gives (the rest keep their defaults).
const sample = { ...notification(), id: "", outcome: "", receivedAt: "" };
const COLUMNS = (driver.pragma('table_info("ServiceNotification")') as { name: string }[])
  .map((c) => c.name)
  .filter((name): name is keyof typeof sample => name in sample);
function floorCommits(size: number, count: number) {
  const statement = driver.prepare(
    `INSERT INTO "ServiceNotification" ("${COLUMNS.join('", "')}") VALUES ${Array.from(
      { length: size },
      () => `(${COLUMNS.map(() => "?").join(", ")})`,
    ).join(", ")} ON CONFLICT ("dedupeKey") DO NOTHING RETURNING "id"`,
  );
  const batches = Array.from({ length: count }, () => Array.from({ length: size }, notification));
  const cpu = process.cpuUsage();
  for (const batch of batches) {
    const values = batch.flatMap((row) => {
      const full = {
        ...row,
        id: randomUUID(),
        outcome: "stored",
        receivedAt: new Date().toISOString().replace("Z", "+00:00"),
      };
      return COLUMNS.map((column) => full[column]);
    });
    driver.exec("BEGIN IMMEDIATE");
    statement.all(...values);
    driver.exec("COMMIT");
  }
  const { user, system } = process.cpuUsage(cpu);
  return user + system;
}
console.log("the floor, better-sqlite3 alone: rows/commit  CPU µs/row");
for (const size of SIZES) {
  floorCommits(size, WARM_UP);
  console.log(
    `${String(size).padStart(11)}  ${(floorCommits(size, COMMITS) / size / COMMITS).toFixed(1).padStart(11)}`,
  );
}
driver.close();
await db.$disconnect();
rmSync(dir, { recursive: true, force: true });
