// What the order webhook's inbox costs per delivery and per apply, counted rather than timed, so
// that a busy machine does not change it (docs/decisions/webhook-storage.md): every SQL statement
// the shop's Prisma client sends (better-sqlite3's prepare, which Prisma's SQLite driver adapter
// calls once per statement), the transactions (BEGIN), the process's CPU time, and SQLite's plan
// of each statement of the apply (a SCAN there is a table walk). The checkout measured is the
// current directory, so an older commit's worktree is measured with the same script:
//
//   cd <checkout> && npx tsx --conditions=react-server <this checkout>/scripts/webhook-apply-cost.ts \
//     [orders=2000] [deliveries per burst=200] [bursts=5]
//
// A SQLite file seeded as bench:webhook's (orders held for a person: the amounts never match),
// bursts of deliveries stored through the inbox, then applied once they pause, then a batch
// stored directly and applied by the sweep (applyUnapplied), as a backlog past the inbox's
// memory is.
import { mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { createBenchDatabase } from "./lib/bench-database.mjs";
import { signedDeliveries } from "./lib/webhook-deliveries.mjs";

const root = process.cwd();
const require = createRequire(path.join(root, "package.json"));
const Database = require("better-sqlite3");
const ORDERS = Number(process.argv[2] ?? 2000);
const N = Number(process.argv[3] ?? 200);

const ROUNDS = Number(process.argv[4] ?? 5);

const tmp = mkdtempSync(path.join(tmpdir(), "webhook-apply-cost-"));
const file = path.join(tmp, "app.db");
createBenchDatabase(file, { appDir: root, orders: ORDERS });
// Payments for orders 0, 1, 2, … (the bursts, then the sweep's batch, then one to warm up).
const deliveries = signedDeliveries({
  count: ROUNDS * N + N + 1,
  orders: ORDERS,
  duplicateShare: 0,
  secret: "unused",
});
const body = (n: number) => deliveries[n]?.body as string;

// Every statement the driver adapter prepares (it prepares each one it runs), on the copy of
// better-sqlite3 the adapter itself loads.
let log: string[] = [];
const adapterRequire = createRequire(require.resolve("@prisma/adapter-better-sqlite3"));
for (const Db of new Set([Database, adapterRequire("better-sqlite3")])) {
  const proto = Db.prototype;
  const prepare = proto.prepare;
  proto.prepare = function (this: unknown, sql: string) {
    log.push(sql);
    return prepare.call(this, sql);
  };
}

Object.assign(process.env, {
  NODE_ENV: "production",
  DATABASE_URL: `file:${file}`,
  SESSION_SECRET: "bench-only-session-secret-at-least-32-chars",
  ADMIN_EMAIL: "admin@example.com",
  ADMIN_PASSWORD: "bench-admin-password",
  SHOP_BASE_URL: "http://127.0.0.1:1",
  TRUSTED_PROXY_HOPS: "0",
  SERVICE_ORDER_CREATION: "ready_to_place_order",
  INTEGRATION_INSPECTOR: "off",
});

const service = await import(path.join(root, "lib/service-adapter/service.ts"));
const payloadPath = ["packages/kit/src/webhook-payload.ts", "lib/service/webhook-payload.ts"].find(
  (p) => {
    try {
      readFileSync(path.join(root, p));
      return true;
    } catch {
      return false;
    }
  },
) as string;
const { parseOrderNotification } = await import(path.join(root, payloadPath));

const inbox = service.getNotificationInbox();
// Warm up: the client connects, the pragmas run, the query compiler loads.
await inbox.receive(parseOrderNotification(new TextEncoder().encode(body(ROUNDS * N + N))));
await inbox.idle();

function summary(name: string, statements: string[], per: number, cpuMs: number, wallMs: number) {
  const kinds = new Map<string, number>();
  for (const s of statements) {
    const key = s.replace(/\s+/g, " ").trim().slice(0, 110);
    kinds.set(key, (kinds.get(key) ?? 0) + 1);
  }
  const begins = statements.filter((s) => /^\s*BEGIN/i.test(s)).length;
  console.log(
    `\n${name}: ${statements.length} statements (${(statements.length / per).toFixed(2)} per), ${begins} BEGIN (${(begins / per).toFixed(3)} per), CPU ${(cpuMs / per).toFixed(2)} ms per, wall ${(wallMs / per).toFixed(2)} ms per`,
  );
  for (const [k, n] of [...kinds].sort((a, b) => b[1] - a[1]))
    console.log(`  ${(n / per).toFixed(2).padStart(6)}  ${k}`);
}

// Bursts: ROUNDS × N deliveries at once (the applier waits for quiet), then their applies.
const storeCpu: number[] = [];
let storeLog: string[] = [];
for (let r = 0; r < ROUNDS; r++) {
  log = [];
  const cpu0 = process.cpuUsage();
  const bodies = Array.from({ length: N }, (_, i) => body(r * N + i));
  await Promise.all(
    bodies.map((b) => inbox.receive(parseOrderNotification(new TextEncoder().encode(b)))),
  );
  const c0 = process.cpuUsage(cpu0);
  storeCpu.push((c0.user + c0.system) / 1000 / N);
  storeLog = storeLog.concat(log);
}
console.log(`store CPU ms per delivery by round: ${storeCpu.map((x) => x.toFixed(3)).join(" ")}`);
summary(
  `store ${ROUNDS}x${N} deliveries`,
  storeLog,
  ROUNDS * N,
  storeCpu.reduce((a, b) => a + b, 0) * N,
  Number.NaN,
);
log = [];
let cpu = process.cpuUsage();
let t = performance.now();
await inbox.idle();
let c = process.cpuUsage(cpu);
summary(`apply ${ROUNDS * N}`, log, ROUNDS * N, (c.user + c.system) / 1000, performance.now() - t);

// The sweep path (the bench's backlog beyond 1,000 rows is read back from the database).
const second = Array.from({ length: N }, (_, i) => body(ROUNDS * N + i));
// Stored by the store directly, not the inbox, so only the sweep applies them.
const notes = second.map((b) => parseOrderNotification(new TextEncoder().encode(b)));
// The store the inbox uses (this layout, or the shop's own store before the adapter package).
const stored = await (typeof service.serviceAdapter === "function"
  ? service.serviceAdapter().servicePay
  : (
      await import(path.join(root, "lib/service-adapter/service-pay-store.ts"))
    ).createStoredNotificationStore((await import(path.join(root, "lib/db/client.ts"))).getDb())
).storeBatch(notes);
log = [];
cpu = process.cpuUsage();
t = performance.now();
const swept = await inbox.applyUnapplied();
c = process.cpuUsage(cpu);
const sweepStatements = [...new Set(log)];
summary(
  `sweep ${swept} of ${stored.filter(Boolean).length}`,
  log,
  swept,
  (c.user + c.system) / 1000,
  performance.now() - t,
);

// What each distinct statement of the apply does (scans show as SCAN).
const check = new Database(file, { readonly: true });
const leftover = check
  .prepare(`SELECT outcome, COUNT(*) AS n FROM "ServiceNotification" GROUP BY outcome`)
  .all();
console.log("\noutcomes:", JSON.stringify(leftover));
for (const sql of sweepStatements) {
  if (/^\s*(BEGIN|COMMIT|ROLLBACK)/i.test(sql)) continue;
  const stmt = check.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const plan = stmt
    .all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => "x"))
    .map((r: { detail: string }) => r.detail);
  console.log(`\n${sql.replace(/\s+/g, " ").trim().slice(0, 300)}\n   -> ${plan.join(" | ")}`);
}
check.close();
process.exit(0);
