// npm run bench:cluster — the shop at scale (docs/decisions/scaling.md): the order webhook, a
// product page and a shopper's checkout page at 50 concurrent clients through Debian's nginx
// (round robin), with two shop instances on PostgreSQL and, in the same run, with one, each on a
// fresh database. For context each configuration first measures the benchmarks' empty route
// (scripts/lib/floor-app.mjs) with as many instances behind the same nginx, sent the same
// deliveries: the floor a webhook answer cannot go below on this machine.
//
// Prints req/s, p50 and p99 per target and configuration, fails on any answer but 200 (or a
// socket error), and after each webhook run waits until nothing stored is left unapplied (the
// webhook answers once stored and applies right after), then checks the database: one stored
// notification per distinct notification sent, none stored as a transition twice, no order
// status reached twice. The balancer and the instances listen on free ports the system picks
// (a fixed one could be a port another checkout's test run is using).
// The webhook deliveries are signed in advance; 10 % are exact repeats of an earlier one (the
// service's retries). Needs a production build (`next build` is run when there is none).
// BENCH_DURATION sets seconds per measurement (default 10, after a 3 s warm-up).
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { sealData } from "iron-session";
import pg from "pg";
import { ensureNginx, nginxConfig } from "./cluster.mjs";
import { loadEnv, root } from "./lib/env.mjs";
import { ensureFloorApp } from "./lib/floor-app.mjs";
import { freePort, start, stop } from "./lib/processes.mjs";
import { prepareDatabase } from "./lib/run.mjs";
import {
  compareStored,
  madeIds,
  nextDeliveryRequest,
  seededTokenRow,
  signedDeliveries,
} from "./lib/webhook-deliveries.mjs";
import { postgresUrl, resetDatabases, startPostgres, stopPostgres } from "./postgres.mjs";

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_S = 3;
const CLIENTS = 50;
const DUPLICATE_SHARE = 0.1;
const ORDERS = 10_000;
const DELIVERIES = 60_000;
const DATABASE = "shop_bench_cluster";
const IDENTITY = { userId: "bench-user", merchantId: "bench-merchant" };
const SECRET = `${IDENTITY.userId}-${IDENTITY.merchantId}`;
const PRODUCT_PAGE = "/products/aurora-x1";

function ensureBuild() {
  if (existsSync(path.join(root, ".next/BUILD_ID"))) return;
  console.log("No production build: running next build…");
  const result = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** A shopper's sealed session cookie with two products in the cart, for the checkout page. */
async function shopperWithCart() {
  const session = {
    sessionId: randomBytes(32).toString("hex"),
    salt: randomBytes(32).toString("hex"),
    currency: "EUR",
  };
  await sql(
    `INSERT INTO "Cart" (id, "sessionId", currency, "createdAt", "updatedAt")
     VALUES ('bench-cart', $1, 'EUR', now(), now())`,
    [session.sessionId],
  );
  await sql(
    `INSERT INTO "CartItem" (id, "cartId", "productId", quantity, "createdAt")
     SELECT 'bench-item-' || slug, 'bench-cart', id, 1, now() FROM "Product"
     WHERE slug IN ('aurora-x1', 'echo-buds-pro')`,
  );
  const sealed = await sealData(session, { password: process.env.SESSION_SECRET, ttl: 3600 });
  return `shop_session=${sealed}`;
}

async function sql(text, values = []) {
  const client = new pg.Client({ connectionString: postgresUrl(DATABASE) });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A fresh database: migrated and seeded as the demo is, plus pending Service Pay orders to
 *  notify about and a ServiceToken, so the instances know the signing secret. */
async function freshDatabase() {
  await resetDatabases([DATABASE]);
  prepareDatabase(postgresUrl(DATABASE));
  await sql(
    `INSERT INTO "Address" (id, given_name, family_name, phone, address, city, state, country_code, postal_code)
     SELECT p || g, 'Ada', 'Lovelace', '+353 1 555 0100', '1 Analytical Row', 'Dublin', '', 'IE', 'D02 X285'
     FROM generate_series(0, $1 - 1) g, (VALUES ('ab'), ('as')) AS v(p)`,
    [ORDERS],
  );
  await sql(
    `INSERT INTO "Order" (id, number, "cartId", "sessionId", email, status, "paymentMethod",
       "shippingMethod", currency, price, tax, "shippingPrice", "tradeInDiscount", total,
       "billingAddressId", "shippingAddressId", "createdAt", "updatedAt")
     SELECT 'o' || g, 'SO-BENCH-' || g, 'bench-cart-' || g, 'bench-session', 'ada@example.com',
       'pending', 'service_pay', 'standard', 'EUR', 10000, 2300, 499, 0, 12799, 'ab' || g, 'as' || g,
       now(), now()
     FROM generate_series(0, $1 - 1) g`,
    [ORDERS],
  );
  await sql(
    `INSERT INTO "OrderStatusChange" (id, "orderId", "from", "to", source, note, "createdAt")
     SELECT 'h' || g, 'o' || g, NULL, 'pending', 'shop', '', now() FROM generate_series(0, $1 - 1) g`,
    [ORDERS],
  );
  const token = seededTokenRow({ tokenKey: process.env.SERVICE_TOKEN_KEY, ...IDENTITY });
  await sql(
    `INSERT INTO "ServiceToken" (id, "accessToken", "refreshToken", "userId", "merchantId", scope,
       "accessExpiresAt", "updatedAt")
     VALUES ('default', $1, $2, $3, $4, $5, $6, now())`,
    [
      token.accessToken,
      token.refreshToken,
      token.userId,
      token.merchantId,
      token.scope,
      token.accessExpiresAt,
    ],
  );
}

async function waitFor(url) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer 200 within 60 s`);
}

/** The balancer's port, picked once per run. */
let BALANCER;

/** nginx on `port` in front of the instances on `instancePorts`; returns its process. */
function startBalancer(port, instancePorts) {
  const prefix = path.join(root, ".cluster", `nginx-${port}`);
  for (const dir of ["", "client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) {
    mkdirSync(path.join(prefix, dir), { recursive: true });
  }
  const conf = path.join(prefix, "nginx.conf");
  writeFileSync(conf, nginxConfig({ prefix, port, instancePorts }));
  return start(ensureNginx(), ["-p", prefix, "-c", conf], {}, root);
}

/**
 * The comparison: N instances of the benchmarks' empty route (scripts/lib/floor-app.mjs) behind
 * the same nginx, sent the same signed deliveries: what 50 senders cost through this balancer
 * on this machine before the shop stores anything.
 */
async function measureFloor(instances, list) {
  const dir = ensureFloorApp();
  const ports = [];
  for (let i = 0; i < instances; i++) ports.push(await freePort());
  const children = ports.map((port) =>
    start(
      process.execPath,
      [
        path.join(root, "node_modules/next/dist/bin/next"),
        "start",
        "-p",
        String(port),
        "-H",
        "127.0.0.1",
      ],
      { NODE_ENV: "production" },
      dir,
    ),
  );
  try {
    const balancer = await freePort();
    children.push(startBalancer(balancer, ports));
    const url = `http://127.0.0.1:${balancer}/api/empty`;
    for (;;) {
      const answered = await fetch(url, { method: "POST", body: "{}" }).catch(() => null);
      if (answered?.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return await measure("empty route", { url, requests: [nextDeliveryRequest(list, { i: 0 })] });
  } finally {
    await Promise.all(children.map(stop));
  }
}

/** N instances and nginx in front of them; returns the processes. */
async function startCluster(instances) {
  const ports = [];
  for (let i = 0; i < instances; i++) ports.push(await freePort());
  const env = {
    NODE_ENV: "production",
    DATABASE_URL: postgresUrl(DATABASE),
    SHOP_BASE_URL: `http://localhost:${BALANCER}`,
    SERVICE_API_BASE_URL: "http://127.0.0.1:9", // never called: the token is seeded
    INTEGRATION_INSPECTOR: "off",
    TRADE_IN_RETRY_INTERVAL_MS: "0",
    TRUSTED_PROXY_HOPS: "1",
  };
  const children = ports.map((port) =>
    start(
      process.execPath,
      ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
      env,
      root,
    ),
  );
  await Promise.all(ports.map((port) => waitFor(`http://127.0.0.1:${port}${PRODUCT_PAGE}`)));
  children.push(startBalancer(BALANCER, ports));
  await waitFor(`http://127.0.0.1:${BALANCER}${PRODUCT_PAGE}`);
  return children;
}

function load(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CLIENTS, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

async function measure(name, options) {
  await load({ ...options, duration: WARMUP_S });
  const result = await load({ ...options, duration: DURATION_S });
  const non200 = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => code !== "200")
    .reduce((n, [, { count }]) => n + count, 0);
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + non200,
  };
}

/** Waits until every stored notification was applied (store-then-apply); how long it took. */
async function waitUntilApplied() {
  const started = Date.now();
  const left = async () =>
    (await sql(`SELECT COUNT(*)::int AS n FROM "ServiceNotification" WHERE outcome = 'stored'`))[0]
      .n;
  const before = await left();
  while ((await left()) > 0 && Date.now() - started < 300_000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { ms: Date.now() - started, before, left: await left() };
}

/** What the webhook stored, checked against what was sent and answered. */
async function checkDatabase(list, cursor, first) {
  const rows = await sql(`SELECT "notificationId" AS id FROM "ServiceNotification"`);
  const [twice] = await sql(
    `SELECT COUNT(*)::int AS n FROM (SELECT note FROM "OrderStatusChange" WHERE source = 'service'
       GROUP BY note HAVING COUNT(*) > 1) t`,
  );
  const [repeated] = await sql(
    // Transitions only: a notification kept but not applied (late, or on a held order) writes a
    // history line from a status to the same one, which reaches nothing.
    `SELECT COUNT(*)::int AS n FROM (SELECT "orderId", "to" FROM "OrderStatusChange"
       WHERE "from" IS DISTINCT FROM "to" GROUP BY "orderId", "to" HAVING COUNT(*) > 1) t`,
  );
  const stored = compareStored({
    made: madeIds(list.slice(first), cursor.i - first),
    answered: cursor.answered,
    storedIds: rows.map((row) => row.id),
  });
  return { ...stored, twice: twice.n, repeated: repeated.n };
}

/** PostgreSQL's own counters for the database (pg_stat_database), for the work per request. */
async function databaseWork() {
  // Backends report their counters at most once a second.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const [row] = await sql(
    `SELECT xact_commit::int AS commits, tup_inserted::int AS inserted, tup_updated::int AS updated,
       tup_returned::bigint + tup_fetched::bigint AS read
     FROM pg_stat_database WHERE datname = $1`,
    [DATABASE],
  );
  return row;
}

function perRequest(before, after, requests) {
  const per = (key) => (Number(after[key]) - Number(before[key])) / requests;
  return {
    commits: per("commits"),
    inserted: per("inserted"),
    updated: per("updated"),
    read: per("read"),
  };
}

async function run(instances, list, cursor) {
  console.log(
    `━━━ ${instances} instance(s): the empty route, then a fresh database, start, measure`,
  );
  const floor = await measureFloor(instances, list);
  await freshDatabase();
  const children = await startCluster(instances);
  try {
    const base = `http://127.0.0.1:${BALANCER}`;
    const first = cursor.i;
    cursor.answered = new Set();
    const before = await databaseWork();
    const webhook = await measure("webhook", {
      url: `${base}/api/service/webhooks/order`,
      requests: [nextDeliveryRequest(list, cursor)],
    });
    const answering = await databaseWork();
    const drain = await waitUntilApplied();
    const work = {
      answering: perRequest(before, answering, cursor.i - first),
      applying: perRequest(answering, await databaseWork(), cursor.i - first),
    };
    const stored = { ...(await checkDatabase(list, cursor, first)), drain };
    const page = await measure("product page", { url: `${base}${PRODUCT_PAGE}` });
    const checkout = await measure("checkout page", {
      url: `${base}/checkout`,
      headers: { cookie: await shopperWithCart() },
    });
    return {
      instances,
      rows: [floor, webhook, page, checkout],
      stored,
      work,
      logs: () => children.map((c) => c.log().slice(-3000)),
    };
  } finally {
    await Promise.all(children.map(stop));
  }
}

async function main() {
  loadEnv();
  BALANCER = await freePort();
  ensureBuild();
  const startedPostgres = startPostgres();
  console.log(`Signing ${DELIVERIES} deliveries for ${ORDERS} orders…`);
  const list = signedDeliveries({
    count: DELIVERIES,
    orders: ORDERS,
    duplicateShare: DUPLICATE_SHARE,
    secret: SECRET,
  });
  const results = [];
  try {
    // Each configuration starts from the same deliveries on a fresh database.
    for (const instances of [1, 2]) results.push(await run(instances, list, { i: 0 }));
  } finally {
    if (startedPostgres) stopPostgres();
  }

  console.log("");
  console.log(`${CLIENTS} concurrent clients through nginx, ${DURATION_S} s per measurement`);
  console.log("target          instances    req/s   p50 ms   p99 ms   requests  errors");
  for (const r of results) {
    for (const row of r.rows) {
      console.log(
        `${row.name.padEnd(15)} ${String(r.instances).padStart(9)} ${row.rps.toFixed(0).padStart(8)} ${String(row.p50).padStart(8)} ${String(row.p99).padStart(8)} ${String(row.requests).padStart(10)} ${String(row.errors).padStart(7)}`,
      );
    }
  }
  for (const name of ["empty route", "webhook", "product page", "checkout page"]) {
    const [one, two] = results.map((r) => r.rows.find((row) => row.name === name));
    console.log(`${name}: two instances / one = ${(two.rps / one.rps).toFixed(2)}× req/s`);
  }
  for (const r of results) {
    const [floor, webhook] = ["empty route", "webhook"].map((name) =>
      r.rows.find((row) => row.name === name),
    );
    console.log(
      `webhook with ${r.instances}: p99 ${webhook.p99} ms (aim <= 100), ${webhook.rps.toFixed(0)} req/s (aim >= 300); the empty route through the same balancer: p99 ${floor.p99} ms, ${floor.rps.toFixed(0)} req/s (the webhook at ${(webhook.rps / floor.rps).toFixed(2)}× its req/s)`,
    );
  }
  const failures = [];
  for (const r of results) {
    const s = r.stored;
    console.log(
      `database after the ${r.instances}-instance webhook run: ${s.rows} notifications stored (${s.distinct} distinct) for ${s.answered} distinct ones answered 200 of ${s.made} sent; ${s.lost} answered but not stored, ${s.unknown} stored but never sent; ${s.twice} stored as a transition twice; ${s.repeated} order statuses reached twice`,
    );
    console.log(
      `applying after the last answer took ${s.drain.ms} ms (${s.drain.before} were waiting: ${Math.round((s.drain.before - s.drain.left) / Math.max(s.drain.ms / 1000, 0.001))} applied per second); ${s.drain.left} left unapplied`,
    );
    const work = (w) =>
      `${w.commits.toFixed(2)} commits, ${w.inserted.toFixed(2)} rows inserted, ${w.updated.toFixed(2)} updated, ${w.read.toFixed(0)} rows read`;
    console.log(
      `database work per webhook delivery (warm-up included): while answering ${work(r.work.answering)}; applying after the last answer ${work(r.work.applying)} (with the benchmark's own counting of what is left)`,
    );
    if (r.rows.some((row) => row.errors > 0)) failures.push(`errors with ${r.instances}`);
    if (s.lost > 0) failures.push(`answered 200 but not stored with ${r.instances}`);
    if (s.unknown > 0) failures.push(`stored but never sent with ${r.instances}`);
    if (s.rows !== s.distinct) failures.push(`a notification stored twice with ${r.instances}`);
    if (s.drain.left > 0) failures.push(`left unapplied with ${r.instances}`);
    if (s.twice > 0 || s.repeated > 0) failures.push(`a transition twice with ${r.instances}`);
  }
  if (failures.length > 0) {
    console.log(`FAILED: ${failures.join("; ")}`);
    for (const r of results) for (const log of r.logs()) console.log(log);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
