// `npm run bench:pages`: Lighthouse (mobile preset, the default) on home, a product page, cart
// and checkout against the production build, with its own database and a cart in the session.
// The service emulator runs beside it and the SDK must be loaded on the page (checked in a real
// browser first), so the figures include the integration every shop page carries.
// Prints performance and accessibility per page; the aim is >= 95 and 100.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { sealData } from "iron-session";
import { CHROMIUM_LAUNCH_OPTIONS } from "./chromium-launch";
// @ts-expect-error: plain ESM helpers shared with the other scripts
import { loadEnv, root } from "./lib/env.mjs";
// @ts-expect-error: plain ESM helpers shared with the other scripts
import { prepareDatabase, run } from "./lib/run.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 3100);
const BASE = `http://localhost:${PORT}`;
const EMULATOR_PORT = Number(process.env.BENCH_EMULATOR_PORT ?? 4210);
const EMULATOR = `http://localhost:${EMULATOR_PORT}`;
const PAGES = [
  { name: "home", path: "/" },
  { name: "product", path: "/products/aurora-x1" },
  { name: "cart", path: "/cart" },
  { name: "checkout", path: "/checkout" },
];

process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "file:./bench.db";
loadEnv();
// The shop under test talks to its own emulator, and builds its callback URLs from its own port.
process.env.SHOP_BASE_URL = BASE;
process.env.SERVICE_API_BASE_URL = EMULATOR;
process.env.SERVICE_ASSETS_URL = `${EMULATOR}/assets`;
prepareDatabase(process.env.DATABASE_URL, { fresh: true });
if (!existsSync(path.join(root, ".next/BUILD_ID")) || process.argv.includes("--build")) {
  run(process.execPath, ["node_modules/next/dist/bin/next", "build"]);
}

async function sessionWithCart(): Promise<string> {
  const { randomHex32, SESSION_COOKIE } = await import("../lib/session/session-data");
  const { addToCart } = await import("../lib/shop/cart");
  const { getDb } = await import("../lib/db/client");
  const data = {
    sessionId: randomHex32(),
    salt: randomHex32(),
    token: randomHex32(),
    currency: "EUR" as const,
  };
  for (const slug of ["aurora-x1", "echo-buds-pro"]) {
    const product = await getDb().product.findUniqueOrThrow({ where: { slug } });
    await addToCart({
      sessionId: data.sessionId,
      currency: "EUR",
      productId: product.id,
      quantity: 1,
    });
  }
  await getDb().$disconnect();
  const sealed = await sealData(data, { password: process.env.SESSION_SECRET ?? "", ttl: 3600 });
  return `${SESSION_COOKIE}=${sealed}`;
}

async function waitFor(url: string, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not start`);
}

/** The emulator's seed allows the demo shop's origin only; this shop runs on another port. */
async function allowBenchOrigin(): Promise<void> {
  const merchants = `${EMULATOR}/__emulator/merchants`;
  const { merchants: list } = (await (await fetch(merchants)).json()) as {
    merchants: { id: string; allowed_origins: string[] }[];
  };
  const demo = list.find((m) => m.id === (process.env.SERVICE_MERCHANT_ID ?? "m_demo"));
  if (!demo) throw new Error("the emulator has no demo merchant");
  const response = await fetch(`${merchants}/${demo.id}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ allowed_origins: [...demo.allowed_origins, BASE] }),
  });
  if (!response.ok) throw new Error(`could not allow ${BASE}: ${response.status}`);
}

/** Fails the benchmark unless the SDK really loads on the measured pages. */
async function assertSdkLoads(cookie: string): Promise<void> {
  const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
  try {
    const context = await browser.newContext({ extraHTTPHeaders: { Cookie: cookie } });
    const page = await context.newPage();
    await page.goto(`${BASE}/`);
    await page.waitForFunction(() => document.documentElement.dataset.serviceSdk !== "loading");
    const state = await page.evaluate(() => document.documentElement.dataset.serviceSdk);
    if (state !== "ready") throw new Error(`the service SDK did not load (state: ${state})`);
  } finally {
    await browser.close();
  }
}

function lighthouse(url: string, cookie: string) {
  const result = spawnSync(
    process.execPath,
    [
      "node_modules/lighthouse/cli/index.js",
      url,
      "--output=json",
      "--output-path=stdout",
      "--quiet",
      "--only-categories=performance,accessibility",
      "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
      `--extra-headers=${JSON.stringify({ Cookie: cookie })}`,
    ],
    {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? "/usr/bin/chromium" },
    },
  );
  if (result.status !== 0) throw new Error(`lighthouse failed for ${url}: ${result.stderr}`);
  const report = JSON.parse(result.stdout);
  const audits = report.audits;
  return {
    performance: Math.round(report.categories.performance.score * 100),
    accessibility: Math.round(report.categories.accessibility.score * 100),
    fcp: audits["first-contentful-paint"].displayValue,
    lcp: audits["largest-contentful-paint"].displayValue,
    tbt: audits["total-blocking-time"].displayValue,
    cls: audits["cumulative-layout-shift"].displayValue,
    failedA11y: Object.values(report.categories.accessibility.auditRefs as { id: string }[])
      .map((ref) => audits[ref.id])
      .filter((a: { score: number | null }) => a.score !== null && a.score < 1)
      .map((a: { id: string }) => a.id),
  };
}

let server: ChildProcess | undefined;
let emulator: ChildProcess | undefined;
try {
  const cookie = await sessionWithCart();
  emulator = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "emulator/src/main.ts"], {
    cwd: root,
    env: { ...process.env, EMULATOR_PORT: String(EMULATOR_PORT) },
    stdio: "ignore",
  });
  await waitFor(`${EMULATOR}/__emulator/health`, "the service emulator");
  await allowBenchOrigin();
  server = spawn(
    process.execPath,
    ["node_modules/next/dist/bin/next", "start", "-p", String(PORT)],
    {
      cwd: root,
      env: process.env,
      stdio: "ignore",
    },
  );
  await waitFor(`${BASE}/`, "the storefront");
  await assertSdkLoads(cookie);
  const rows = [];
  for (const page of PAGES) {
    const scores = lighthouse(`${BASE}${page.path}`, cookie);
    rows.push({ page: page.name, ...scores });
    console.log(
      `${page.name.padEnd(9)} performance ${String(scores.performance).padStart(3)}  accessibility ${String(scores.accessibility).padStart(3)}  FCP ${scores.fcp}  LCP ${scores.lcp}  TBT ${scores.tbt}  CLS ${scores.cls}${scores.failedA11y.length ? `  a11y: ${scores.failedA11y.join(", ")}` : ""}`,
    );
  }
  mkdirSync(path.join(root, "bench-results"), { recursive: true });
  writeFileSync(path.join(root, "bench-results/pages.json"), `${JSON.stringify(rows, null, 2)}\n`);
  console.log("Written to bench-results/pages.json (aim: performance >= 95, accessibility 100)");
} finally {
  server?.kill("SIGTERM");
  emulator?.kill("SIGTERM");
}
