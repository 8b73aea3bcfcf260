// npm run probe:anonymous — cookieless requests to a RUNNING shop, over HTTP, then the rows they
// left (docs/security.md, Bounded storage). Each request carries no cookie, so the shop's proxy
// gives it a brand-new session, as a flood would. Two routes an anonymous request writes through:
//   - POST /api/service/trade-in-seen (SessionTradeIn), JSON;
//   - add-to-cart (Cart, CartItem): the product page's form posted as a browser without
//     JavaScript posts it (its hidden fields, read from the page once), to the page's URL.
// Then it counts the rows of every table an anonymous request can write, from DATABASE_URL (a
// `file:` SQLite path or a `postgresql://` URL: the shop's own database), and fails (exit 1) when
// SessionTradeIn or the open anonymous carts exceed ANONYMOUS_CARTS_MAX plus the requests in
// flight, or any request was answered otherwise than expected.
//   PROBE_SHOP_URL (default http://127.0.0.1:3000), PROBE_REQUESTS per route (default 10,000),
//   PROBE_CONCURRENCY (default 10), ANONYMOUS_CARTS_MAX (the shop's setting, default 50,000).
// app/api/service/anonymous-storage.test.ts sends 10,000 to every such way in one process,
// calling the handlers; this probe sends them over HTTP, through the proxy and Next, to a running
// shop (a deployment's own settings and database).
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";

const base = (process.env.PROBE_SHOP_URL ?? "http://127.0.0.1:3000").replace(/\/$/, "");
const REQUESTS = Number(process.env.PROBE_REQUESTS ?? 10_000);
const CONCURRENCY = Number(process.env.PROBE_CONCURRENCY ?? 10);
const CAP = Number(process.env.ANONYMOUS_CARTS_MAX ?? 50_000);
const databaseUrl = process.env.DATABASE_URL ?? "";

/** Every table an anonymous request can write (docs/security.md, Bounded storage). */
const COUNTS = {
  SessionTradeIn: `SELECT COUNT(*) AS n FROM "SessionTradeIn"`,
  "Cart (open, anonymous)": `SELECT COUNT(*) AS n FROM "Cart" WHERE "customerId" IS NULL AND "checkedOutAt" IS NULL`,
  Cart: `SELECT COUNT(*) AS n FROM "Cart"`,
  CartItem: `SELECT COUNT(*) AS n FROM "CartItem"`,
  CartPromotion: `SELECT COUNT(*) AS n FROM "CartPromotion"`,
  ServiceCheckout: `SELECT COUNT(*) AS n FROM "ServiceCheckout"`,
  Order: `SELECT COUNT(*) AS n FROM "Order"`,
  RevokedSession: `SELECT COUNT(*) AS n FROM "RevokedSession"`,
  LoginThrottle: `SELECT COUNT(*) AS n FROM "LoginThrottle"`,
};

async function countRows() {
  const out = {};
  if (databaseUrl.startsWith("file:")) {
    // A relative path is the project's (prisma.config.ts resolves it from the project root).
    const db = new Database(path.resolve(databaseUrl.slice("file:".length)), { readonly: true });
    for (const [name, sql] of Object.entries(COUNTS)) out[name] = Number(db.prepare(sql).get().n);
    db.close();
  } else if (/^postgres(ql)?:/.test(databaseUrl)) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    for (const [name, sql] of Object.entries(COUNTS)) {
      out[name] = Number((await client.query(sql)).rows[0].n);
    }
    await client.end();
  } else {
    throw new Error("DATABASE_URL must be the shop's database (file:… or postgresql://…)");
  }
  return out;
}

/** Runs `send(i)` for i < REQUESTS, CONCURRENCY at a time; counts the answers' statuses. */
async function flood(name, send, expected) {
  const statuses = new Map();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        const i = next++;
        let status;
        try {
          status = String(await send(i));
        } catch (error) {
          status = `error ${error.code ?? error.message}`;
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const unexpected = [...statuses].filter(([s]) => !expected.includes(s));
  console.log(
    `${name}: ${REQUESTS} cookieless requests in ${seconds.toFixed(1)} s (${(REQUESTS / seconds).toFixed(0)}/s); answers ${[...statuses].map(([s, n]) => `${s}×${n}`).join(" ")}`,
  );
  return unexpected.length === 0;
}

const attr = (tag, name) =>
  new RegExp(`\\b${name}="([^"]*)"`)
    .exec(tag)?.[1]
    ?.replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&");

/** The product page's add-to-cart form: its URL and every field it posts without JavaScript. */
async function addToCartForm() {
  const catalog = await (await fetch(`${base}/`)).text();
  const href = /href="(\/products\/[a-z0-9-]+)"/.exec(catalog)?.[1];
  if (!href) throw new Error(`no product link on ${base}/`);
  const page = await (await fetch(`${base}${href}`)).text();
  const form = /<form class="add-to-cart"[\s\S]*?<\/form>/.exec(page)?.[0];
  if (!form) throw new Error(`no add-to-cart form on ${base}${href}`);
  const fields = [...form.matchAll(/<input[^>]*>/g)]
    .map(([tag]) => [attr(tag, "name"), attr(tag, "value") ?? ""])
    .filter(([name]) => name);
  fields.push(["quantity", "1"]);
  return { url: `${base}${href}`, fields };
}

const before = await countRows();
const tradeInOk = await flood(
  "POST /api/service/trade-in-seen",
  async (i) =>
    (
      await fetch(`${base}/api/service/trade-in-seen`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: base },
        body: JSON.stringify({ tradein_id: `probe-${i}` }),
      })
    ).status,
  ["200"],
);
const form = await addToCartForm();
const cartOk = await flood("add-to-cart (the product page's form)", async () => {
  const body = new FormData();
  for (const [name, value] of form.fields) body.append(name, value);
  const res = await fetch(form.url, {
    method: "POST",
    headers: { origin: base },
    body,
    redirect: "manual",
  });
  await res.arrayBuffer();
  return res.status;
}, ["200", "303"]);
const after = await countRows();
console.log(`rows (before → after), ANONYMOUS_CARTS_MAX ${CAP}:`);
for (const name of Object.keys(COUNTS)) console.log(`  ${name}: ${before[name]} → ${after[name]}`);
const bound = CAP + CONCURRENCY;
const bounded = after.SessionTradeIn <= bound && after["Cart (open, anonymous)"] <= bound;
if (!bounded) console.log(`FAILED: more rows than the cap (${CAP}) plus the requests in flight`);
process.exit(tradeInOk && cartOk && bounded ? 0 : 1);
