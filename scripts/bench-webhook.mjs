// npm run bench:webhook — the order webhook of the production build under load (issue #5, item 9).
//
// In ONE run, at 10 concurrent connections, with the same pre-generated signed deliveries (10 %
// of them exact repeats of an earlier one, as the service's retries would be):
//   (a) POST /api/service/webhooks/order   the real receiver (signature, parse, store, apply)
//   (b) POST /api/service/webhooks/bench-floor      an empty route of the same build: the framework floor
//   (c) a bare node:http server doing the same HMAC check and a SQLite insert (better-sqlite3)
// and prints throughput and p50/p99 latency of each. Aim: (a) keeps >= 80 % of (b)'s
// throughput with p99 < 20 ms.
//
// It builds nothing if a build with the webhook route exists (`next build` otherwise), starts
// `next start` on a free port against its own temporary database (migrated with the project's
// migrations, orders and a ServiceToken seeded so the server knows the signing secret) and
// removes it afterwards. BENCH_APP_DIR serves another checkout's build (e.g. a copy built
// while the shared .next is in use); BENCH_DURATION sets seconds per target (default 10).
import { spawn, spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";

const root = path.resolve(import.meta.dirname, "..");
const appDir = path.resolve(process.env.BENCH_APP_DIR ?? root);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_S = 3;
const CONNECTIONS = 10;
const DUPLICATE_SHARE = 0.1;
const ORDERS = 20_000;
const DELIVERIES = 120_000;
const IDENTITY = { userId: "bench-user", merchantId: "bench-merchant" };
const SECRET = `${IDENTITY.userId}-${IDENTITY.merchantId}`;

function ensureBuild() {
  const route = path.join(appDir, ".next/server/app/api/service/webhooks/bench-floor/route.js");
  if (existsSync(path.join(appDir, ".next/BUILD_ID")) && existsSync(route)) return;
  console.log(`No production build with the webhook route in ${appDir}: running next build…`);
  const result = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
    cwd: appDir,
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** A database file migrated with the project's migrations, with orders to notify about. */
function createDatabase(file) {
  const db = new Database(file);
  const dir = path.join(appDir, "prisma/migrations");
  for (const folder of readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()) {
    db.exec(readFileSync(path.join(dir, folder, "migration.sql"), "utf8"));
  }
  // Prisma's DateTime text for SQLite, so seeded rows sort like the ones the app writes.
  const now = new Date().toISOString().replace("Z", "+00:00");
  const address = db.prepare(
    `INSERT INTO "Address" (id, given_name, family_name, phone, address, city, state, country_code, postal_code)
     VALUES (?, 'Ada', 'Lovelace', '+353 1 555 0100', '1 Analytical Row', 'Dublin', '', 'IE', 'D02 X285')`,
  );
  const order = db.prepare(
    `INSERT INTO "Order" (id, number, cartId, sessionId, email, status, paymentMethod, shippingMethod,
       currency, price, tax, shippingPrice, tradeInDiscount, total, billingAddressId, shippingAddressId,
       createdAt, updatedAt)
     VALUES (?, ?, ?, 'bench-session', 'ada@example.com', 'pending', 'service_pay', 'standard',
       'EUR', 10000, 2300, 499, 0, 12799, ?, ?, ?, ?)`,
  );
  const history = db.prepare(
    `INSERT INTO "OrderStatusChange" (id, orderId, "from", "to", source, note, createdAt)
     VALUES (?, ?, NULL, 'pending', 'shop', '', ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < ORDERS; i++) {
      address.run(`ab${i}`);
      address.run(`as${i}`);
      order.run(`o${i}`, `SO-BENCH-${i}`, cartId(i), `ab${i}`, `as${i}`, now, now);
      history.run(`h${i}`, `o${i}`, now);
    }
    db.prepare(
      `INSERT INTO "ServiceToken" (id, accessToken, refreshToken, userId, merchantId, scope, accessExpiresAt, updatedAt)
       VALUES ('default', 'a', 'r', ?, ?, 'core payments valuations updates', ?, ?)`,
    ).run(IDENTITY.userId, IDENTITY.merchantId, Date.now() + 3_600_000, Date.now());
  })();
  db.close();
}

const cartId = (i) => `bench-cart-${i}`;
const STATUSES = ["payment_completed", "completed"];

/**
 * The deliveries, signed in advance: notification n is for order n mod ORDERS, moving it on
 * (payment_completed, then completed, then repeats of completed); 10 % are exact copies (same
 * bytes, same signature) of an earlier delivery. Both body forms, alternating.
 */
function deliveries() {
  const list = [];
  let unique = 0;
  for (let i = 0; i < DELIVERIES; i++) {
    if (list.length > 100 && i % Math.round(1 / DUPLICATE_SHARE) === 0) {
      list.push(list[i - 1 - ((i * 7919) % 100)]);
      continue;
    }
    const n = unique++;
    const order = n % ORDERS;
    const status = STATUSES[Math.min(Math.floor(n / ORDERS), STATUSES.length - 1)];
    const fields = {
      id: `wh_${String(n).padStart(8, "0")}`,
      event: "order.payment_completed",
      created_at: new Date(1_790_000_000_000 + n).toISOString(),
      order_id: `svc-${order}`,
    };
    const money = { amount: 12300, currency: "EUR", trade_in_discount: 5000, customer_id: null };
    const body = JSON.stringify(
      n % 2 === 0
        ? { ...fields, cart_id: cartId(order), status, ...money }
        : { ...fields, ...money, data: { cart_id: cartId(order), status } },
    );
    const signature = createHmac("sha256", SECRET).update(body).digest("hex");
    list.push({ body, signature });
  }
  return list;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, init) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, init);
      if (res.status === 200) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer 200 within 60 s`);
}

function start(command, args, env, cwd) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: "pipe" });
  let log = "";
  child.stdout.on("data", (d) => {
    log += d;
  });
  child.stderr.on("data", (d) => {
    log += d;
  });
  child.log = () => log;
  return child;
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** Runs autocannon against `url`, each request taking the next delivery in the shared list. */
function load(url, list, seconds, cursor) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [
          {
            method: "POST",
            setupRequest(request) {
              const next = list[cursor.i++ % list.length];
              return {
                ...request,
                body: next.body,
                headers: {
                  "content-type": "application/json",
                  "x-service-signature": next.signature,
                },
              };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

async function measure(name, url, list) {
  const cursor = { i: 0 };
  await load(url, list, WARMUP_S, cursor);
  const result = await load(url, list, DURATION_S, cursor);
  const codes = Object.entries(result.statusCodeStats ?? {})
    .map(([code, { count }]) => `${code}×${count}`)
    .join(" ");
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    codes,
  };
}

async function main() {
  ensureBuild();
  const tmp = mkdtempSync(path.join(tmpdir(), "bench-webhook-"));
  const children = [];
  const cleanup = async () => {
    await Promise.all(children.map(stop));
    rmSync(tmp, { recursive: true, force: true });
  };
  process.on("SIGINT", () => cleanup().then(() => process.exit(130)));
  try {
    const appDb = path.join(tmp, "app.db");
    const bareDb = path.join(tmp, "bare.db");
    console.log(`Seeding ${ORDERS} orders and signing ${DELIVERIES} deliveries…`);
    createDatabase(appDb);
    copyFileSync(appDb, bareDb);
    const list = deliveries();

    const nextPort = await freePort();
    const next = start(
      process.execPath,
      [
        // e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the server
        ...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
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
        SERVICE_API_BASE_URL: "http://127.0.0.1:9", // never called: the token is seeded
        SERVICE_CLIENT_SECRET: "unused",
        SERVICE_PASSWORD: "unused",
        SERVICE_ORDER_CREATION: "ready_to_place_order",
        SERVICE_BENCH_FLOOR: "1",
      },
      appDir,
    );
    children.push(next);
    const base = `http://127.0.0.1:${nextPort}`;
    await waitFor(`${base}/api/service/webhooks/bench-floor`, { method: "POST", body: "{}" });

    const barePort = await freePort();
    const bare = start(
      process.execPath,
      [path.join(import.meta.dirname, "bench-webhook-bare.mjs")],
      { BENCH_PORT: String(barePort), BENCH_DB: bareDb, BENCH_SECRET: SECRET },
      root,
    );
    children.push(bare);
    const bareUrl = `http://127.0.0.1:${barePort}/order`;
    await waitFor(`http://127.0.0.1:${barePort}/health`);

    console.log(
      `Each target: ${WARMUP_S} s warm-up, then ${DURATION_S} s at ${CONNECTIONS} connections…`,
    );
    // BENCH_TARGETS=a (or b, c, ab…) measures only some of them, e.g. while profiling.
    const targets = process.env.BENCH_TARGETS ?? "abc";
    const plan = [
      ["a", "(a) webhook route", `${base}/api/service/webhooks/order`],
      ["b", "(b) empty route, same build", `${base}/api/service/webhooks/bench-floor`],
      ["c", "(c) bare node:http + SQLite", bareUrl],
    ];
    const rows = [];
    for (const [key, name, url] of plan) {
      if (targets.includes(key)) rows.push(await measure(name, url, list));
    }

    const check = new Database(appDb, { readonly: true });
    const stored = check.prepare(`SELECT COUNT(*) AS n FROM "ServiceNotification"`).get().n;
    const paid = check
      .prepare(`SELECT COUNT(*) AS n FROM "Order" WHERE status <> 'pending'`)
      .get().n;
    check.close();

    console.log("");
    console.log(
      "target                          req/s     p50 ms   p99 ms   requests  status codes",
    );
    for (const r of rows) {
      console.log(
        `${r.name.padEnd(30)} ${r.rps.toFixed(0).padStart(7)} ${String(r.p50).padStart(9)} ${String(r.p99).padStart(8)} ${String(r.requests).padStart(10)}  ${r.codes}${r.errors ? `  errors×${r.errors}` : ""}`,
      );
    }
    const hook = rows.find((r) => r.name.startsWith("(a)"));
    const floor = rows.find((r) => r.name.startsWith("(b)"));
    console.log("");
    if (hook && floor) {
      console.log(
        `webhook / empty route throughput: ${((hook.rps / floor.rps) * 100).toFixed(0)} % (aim >= 80 %); webhook p99 ${hook.p99} ms (aim < 20 ms)`,
      );
    }
    console.log(
      `webhook database after the run: ${stored} notifications stored, ${paid} of ${ORDERS} orders moved on`,
    );
    if (hook && (!hook.codes.startsWith("200") || hook.codes.includes(" "))) {
      console.log("WARNING: the webhook answered something other than 200:");
      console.log(next.log().slice(-4000));
    }
  } finally {
    await cleanup();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
