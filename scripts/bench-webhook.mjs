// npm run bench:webhook — the order webhook of the production build under load (contract:
// Events › Webhook; docs/decisions/webhook-storage.md).
//
// The store-then-apply webhook on SQLite (WAL, synchronous=FULL: a 200 means the notification is
// durably stored; it is applied right after) at 10 and then 50 concurrent senders, with the same
// pre-generated signed deliveries, 10 % of them exact repeats of an earlier one (as the
// service's retries would be). Prints req/s, p50 and p99 per level, fails on any answer but 200,
// and after the run waits until nothing stored is left unapplied (printing how long that took),
// then checks the database: one stored notification per distinct notification sent, each
// applied, and no notification and no order status stored as a transition twice. For context it starts its own comparison route: a
// one-route Next app (.bench/floor-app, built on first use) whose POST reads the body and answers
// 200, measured the same way. Aim: p99 <= 100 ms at 50 senders and >= 300 req/s on one instance.
//
// It builds the shop if no production build exists (`next build`), starts `next start` on a free
// port against its own temporary database (migrated with the project's migrations, orders and a
// ServiceToken seeded so the server knows the signing secret) and removes it afterwards.
// BENCH_APP_DIR serves another checkout's build; BENCH_DURATION sets seconds per level (default
// 10); BENCH_ALLOC_DIR adds each level's bytes allocated and collection time per request (below).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { createBenchDatabase } from "./lib/bench-database.mjs";
import { ensureFloorApp, nextBuild } from "./lib/floor-app.mjs";
import { cpuMsOf, freePort, start, stop } from "./lib/processes.mjs";
import {
  compareStored,
  madeIds,
  nextDeliveryRequest,
  seededTokenRow,
  signedDeliveries,
} from "./lib/webhook-deliveries.mjs";

const root = path.resolve(import.meta.dirname, "..");
const appDir = path.resolve(process.env.BENCH_APP_DIR ?? root);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_S = 3;
const SENDERS = [10, 50];
const DUPLICATE_SHARE = 0.1;
const ORDERS = 20_000;
const DELIVERIES = 120_000;
const IDENTITY = { userId: "bench-user", merchantId: "bench-merchant" };
const SECRET = `${IDENTITY.userId}-${IDENTITY.merchantId}`;
const TOKEN_KEY = "bench-only-token-key-at-least-32-characters";

function ensureBuild() {
  const route = path.join(appDir, ".next/server/app/api/service/webhooks/order/route.js");
  if (existsSync(path.join(appDir, ".next/BUILD_ID")) && existsSync(route)) return;
  console.log(`No production build with the webhook route in ${appDir}: running next build…`);
  nextBuild(appDir);
}

/** A database file migrated with the project's migrations, with orders to notify about and
 *  the token row that tells the server the signing secret. */
function createDatabase(file) {
  createBenchDatabase(file, {
    appDir,
    orders: ORDERS,
    seed(db) {
      const token = seededTokenRow({ tokenKey: TOKEN_KEY, ...IDENTITY });
      db.prepare(
        `INSERT INTO "ServiceToken" (id, accessToken, refreshToken, userId, merchantId, scope, accessExpiresAt, updatedAt)
         VALUES ('default', ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        token.accessToken,
        token.refreshToken,
        token.userId,
        token.merchantId,
        token.scope,
        token.accessExpiresAt.getTime(),
        Date.now(),
      );
    },
  });
}

async function waitFor(url, init, status = 200) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, init);
      if (res.status === status) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer ${status} within 60 s`);
}

/** Runs autocannon against `url`, each request taking the next delivery in the shared list. */
function load(url, list, seconds, cursor, connections) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        duration: seconds,
        requests: [nextDeliveryRequest(list, cursor)],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

// BENCH_ALLOC_DIR=<dir>: both servers preload scripts/lib/alloc-window.cjs, and each measured
// level is a window it counts the allocated bytes of (printed per request); with
// BENCH_HEAP_PROFILE=1 also a sampling heap profile of the window, in <dir>/<pid>-<n>.json.
const ALLOC_DIR = process.env.BENCH_ALLOC_DIR ? path.resolve(process.env.BENCH_ALLOC_DIR) : null;
const allocWindows = new Map();

/** Opens (or closes) the server's allocation window; on closing, its JSON once written. */
async function allocWindow(pid, closing) {
  if (!ALLOC_DIR) return null;
  process.kill(pid, "SIGUSR2");
  if (!closing) {
    // The server notes the heap when its event loop gets to the signal: before the load.
    await new Promise((r) => setTimeout(r, 200));
    return null;
  }
  const n = (allocWindows.get(pid) ?? 0) + 1;
  allocWindows.set(pid, n);
  const file = path.join(ALLOC_DIR, `${pid}-${n}.json`);
  const deadline = Date.now() + 60_000;
  while (!existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return JSON.parse(readFileSync(file, "utf8"));
}

async function measure(name, url, list, connections, cursor, pid) {
  await load(url, list, WARMUP_S, cursor, connections);
  await allocWindow(pid, false);
  const cpuBefore = cpuMsOf(pid);
  const from = process.hrtime.bigint() / 1000n;
  const result = await load(url, list, DURATION_S, cursor, connections);
  if (process.env.BENCH_NODE_ARGS) {
    // The measured window on the monotonic clock in µs, as a --cpu-prof profile's timestamps.
    console.log(`${name}, ${connections} senders: ${from}-${process.hrtime.bigint() / 1000n} µs`);
  }
  // The server's own CPU per answered request: what a busier machine changes least.
  const cpuMs = cpuMsOf(pid) - cpuBefore;
  const alloc = await allocWindow(pid, true);
  const codes = Object.entries(result.statusCodeStats ?? {})
    .map(([code, { count }]) => `${code}×${count}`)
    .join(" ");
  return {
    name,
    connections,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    cpuPerRequest: cpuMs / Math.max(result.requests.total, 1),
    kbPerRequest: alloc ? alloc.allocatedBytes / 1024 / Math.max(result.requests.total, 1) : null,
    gcMsPerRequest: alloc ? alloc.gcMs / Math.max(result.requests.total, 1) : null,
    errors: result.errors + result.timeouts,
    non200: Object.entries(result.statusCodeStats ?? {})
      .filter(([code]) => code !== "200")
      .reduce((n, [, { count }]) => n + count, 0),
    codes,
  };
}

/** After the run: waits until every stored notification was applied (store-then-apply). */
async function waitUntilApplied(file) {
  const started = Date.now();
  const db = new Database(file, { readonly: true });
  try {
    const left = db.prepare(
      `SELECT COUNT(*) AS n FROM "ServiceNotification" WHERE outcome = 'stored'`,
    );
    const before = left.get().n;
    while (left.get().n > 0 && Date.now() - started < 300_000) {
      await new Promise((r) => setTimeout(r, 100));
    }
    return { ms: Date.now() - started, before, left: left.get().n };
  } finally {
    db.close();
  }
}

/** After the run: what the webhook stored, checked against what was sent and answered. */
function checkDatabase(file, list, cursor) {
  const db = new Database(file, { readonly: true });
  const storedIds = db
    .prepare(`SELECT "notificationId" AS id FROM "ServiceNotification"`)
    .all()
    .map((row) => row.id);
  // Every history row of a notification names it ("Service notification wh_…").
  const twice = db
    .prepare(
      `SELECT COUNT(*) AS n FROM (SELECT note FROM "OrderStatusChange" WHERE source = 'service'
       GROUP BY note HAVING COUNT(*) > 1)`,
    )
    .get().n;
  const repeated = db
    .prepare(
      // Transitions only: a notification kept but not applied (late, or on a held order) writes
      // a history line from a status to the same one, which reaches nothing.
      `SELECT COUNT(*) AS n FROM (SELECT "orderId", "to" FROM "OrderStatusChange"
       WHERE "from" IS NOT "to" GROUP BY "orderId", "to" HAVING COUNT(*) > 1)`,
    )
    .get().n;
  const moved = db.prepare(`SELECT COUNT(*) AS n FROM "Order" WHERE status <> 'pending'`).get().n;
  db.close();
  const stored = compareStored({
    made: madeIds(list, cursor.i),
    answered: cursor.answered,
    storedIds,
  });
  return { ...stored, twice, repeated, moved };
}

async function main() {
  ensureBuild();
  const tmp = mkdtempSync(path.join(tmpdir(), "bench-webhook-"));
  const children = [];
  const cleanup = async () => {
    await Promise.all(children.map(stop));
    // BENCH_SERVER_LOG=<prefix>: each server's output in <prefix>.shop.log and
    // <prefix>.empty.log, e.g. with BENCH_NODE_ARGS=--trace-gc.
    const logPrefix = process.env.BENCH_SERVER_LOG;
    if (logPrefix) {
      for (const [child, name] of children.map((c, i) => [c, i === 0 ? "shop" : "empty"])) {
        writeFileSync(`${logPrefix}.${name}.log`, child.log());
      }
    }
    rmSync(tmp, { recursive: true, force: true });
  };
  process.on("SIGINT", () => cleanup().then(() => process.exit(130)));
  try {
    const appDb = path.join(tmp, "app.db");
    console.log(`Seeding ${ORDERS} orders and signing ${DELIVERIES} deliveries…`);
    createDatabase(appDb);
    const list = signedDeliveries({
      count: DELIVERIES,
      orders: ORDERS,
      duplicateShare: DUPLICATE_SHARE,
      secret: SECRET,
    });
    const floorDir = ensureFloorApp();

    const nextPort = await freePort();
    // e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile both servers (their
    // pids are printed: a profile's file name holds its process's).
    const nodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
    if (ALLOC_DIR) nodeArgs.push("--require", path.join(root, "scripts/lib/alloc-window.cjs"));
    const next = start(
      process.execPath,
      [
        ...nodeArgs,
        "node_modules/next/dist/bin/next",
        "start",
        "-p",
        String(nextPort),
        "-H",
        "127.0.0.1",
      ],
      {
        NODE_ENV: "production",
        DATABASE_URL: `file:${appDb}`,
        SESSION_SECRET: "bench-only-session-secret-at-least-32-chars",
        ADMIN_EMAIL: "admin@example.com",
        ADMIN_PASSWORD: "bench-admin-password",
        SHOP_BASE_URL: `http://127.0.0.1:${nextPort}`,
        // Production needs it said (lib/config.ts); no login is benchmarked: 0, reached directly.
        TRUSTED_PROXY_HOPS: "0",
        // Production needs every service setting (packages/kit/src/config.ts); none is called here.
        SERVICE_API_BASE_URL: "http://127.0.0.1:9", // never called: the token is seeded
        SERVICE_ASSETS_URL: "http://127.0.0.1:9/assets",
        SERVICE_CLIENT_ID: "unused",
        SERVICE_USERNAME: "unused",
        SERVICE_MERCHANT_ID: "unused",
        SERVICE_PRODUCTS: "valuations+ep1",
        SERVICE_CLIENT_SECRET: "unused",
        SERVICE_PASSWORD: "unused",
        SERVICE_TOKEN_KEY: TOKEN_KEY,
        SERVICE_ORDER_CREATION: "ready_to_place_order",
        INTEGRATION_INSPECTOR: "off",
        TRADE_IN_RETRY_INTERVAL_MS: "0",
      },
      appDir,
    );
    children.push(next);
    const base = `http://127.0.0.1:${nextPort}`;
    await waitFor(`${base}/api/service/webhooks/order`, { method: "POST", body: "{}" }, 403);

    const floorPort = await freePort();
    const floor = start(
      process.execPath,
      [
        ...nodeArgs,
        path.join(root, "node_modules/next/dist/bin/next"),
        "start",
        "-p",
        String(floorPort),
        "-H",
        "127.0.0.1",
      ],
      { NODE_ENV: "production" },
      floorDir,
    );
    children.push(floor);
    const floorUrl = `http://127.0.0.1:${floorPort}/api/empty`;
    if (nodeArgs.length > 0 || ALLOC_DIR)
      console.log(`servers: shop pid ${next.pid}, empty route pid ${floor.pid}`);
    await waitFor(floorUrl, { method: "POST", body: "{}" });

    console.log(`Each level: ${WARMUP_S} s warm-up, then ${DURATION_S} s of load…`);
    const rows = [];
    const cursor = { i: 0 };
    // The comparison first, so the webhook's applying after its last answer overlaps nothing.
    for (const connections of SENDERS) {
      rows.push(
        await measure("empty route (context)", floorUrl, list, connections, { i: 0 }, floor.pid),
      );
    }
    for (const connections of SENDERS) {
      rows.push(
        await measure(
          "webhook (store, apply)",
          `${base}/api/service/webhooks/order`,
          list,
          connections,
          cursor,
          next.pid,
        ),
      );
    }
    const drain = await waitUntilApplied(appDb);
    const stored = checkDatabase(appDb, list, cursor);

    console.log("");
    console.log(
      `target                   senders    req/s   p50 ms   p99 ms   requests  CPU ms/req${ALLOC_DIR ? "  KB/req  GC ms/req" : ""}  status codes`,
    );
    for (const r of rows) {
      console.log(
        `${r.name.padEnd(24)} ${String(r.connections).padStart(7)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(r.requests).padStart(10)} ${r.cpuPerRequest.toFixed(3).padStart(11)}${r.kbPerRequest === null ? "" : `${r.kbPerRequest.toFixed(1).padStart(8)} ${r.gcMsPerRequest.toFixed(3).padStart(10)}`}  ${r.codes}${r.errors ? `  errors×${r.errors}` : ""}`,
      );
    }
    console.log("");
    console.log(
      `database after the run: ${stored.rows} notifications stored (${stored.distinct} distinct) for ${stored.answered} distinct ones answered 200 of ${stored.made} sent; ${stored.lost} answered but not stored, ${stored.unknown} stored but never sent; ${stored.twice} notifications and ${stored.repeated} order statuses stored as a transition twice; ${stored.moved} of ${ORDERS} orders moved on`,
    );
    console.log(
      `applying after the last answer took ${drain.ms} ms (${drain.before} were waiting: ${Math.round((drain.before - drain.left) / Math.max(drain.ms / 1000, 0.001))} applied per second); ${drain.left} notifications left unapplied`,
    );
    const hooks = rows.filter((r) => r.name.startsWith("webhook"));
    const at50 = hooks.find((r) => r.connections === 50);
    const empty50 = rows.find((r) => r.name.startsWith("empty") && r.connections === 50);
    if (at50) {
      const ratio = empty50 ? ` = ${(at50.rps / empty50.rps).toFixed(2)}x the empty route's` : "";
      console.log(
        `aim at 50 senders: p99 ${at50.p99} ms (<= 100), ${at50.rps.toFixed(0)} req/s (>= 300)${ratio} (>= 0.8x)`,
      );
    }
    const failures = [];
    if (hooks.some((r) => r.non200 > 0 || r.errors > 0)) failures.push("an answer other than 200");
    if (stored.lost > 0) failures.push("notifications answered 200 but not stored");
    if (stored.unknown > 0) failures.push("notifications stored that were never sent");
    if (stored.rows !== stored.distinct) failures.push("a notification stored twice");
    if (drain.left > 0) failures.push("notifications left unapplied");
    if (stored.twice > 0 || stored.repeated > 0) failures.push("a transition stored twice");
    if (failures.length > 0) {
      console.log(`FAILED: ${failures.join("; ")}`);
      console.log(next.log().slice(-4000));
      process.exitCode = 1;
    }
  } finally {
    await cleanup();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
