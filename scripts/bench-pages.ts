// `npm run bench:pages`: the shop's pages against the production build, with its own database
// and a cart in the session. The service emulator runs beside it and the SDK must be loaded on
// the page (checked in a real browser first), so the figures include the integration every shop
// page carries. Three figures, each printed:
// 1. Layout shift: cumulative layout shift of every shop page with the SDK loaded, at desktop
//    (1440×900, the inspector docked) and phone (390×844) sizes, from a PerformanceObserver in
//    Chromium (aim: <= 0.02 everywhere).
// 2. Server throughput: the product page and a static file of the same server, 20 concurrent
//    clients for 10 s each (autocannon): requests/s and p99 latency, side by side.
// 3. Lighthouse (mobile preset) on home, product, cart and checkout; `--runs N` (default 1)
//    repeats it and prints min and median (aim: performance >= 95, accessibility 100).
// `--only cls|throughput|lighthouse` runs one of them.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import autocannon from "autocannon";
import { sealData } from "iron-session";
import { CHROMIUM_LAUNCH_OPTIONS } from "./chromium-launch";
// @ts-expect-error: plain ESM helpers shared with the other scripts
import { ensureBrowser } from "./ensure-browser.mjs";
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
/** Every shop page that carries the SDK, for the layout-shift figure. */
const SHIFT_PAGES = [
  ...PAGES,
  { name: "category", path: "/category/phones" },
  { name: "search", path: "/search?q=aurora" },
  { name: "login", path: "/account/login" },
];
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
];
const only = process.argv.includes("--only")
  ? process.argv[process.argv.indexOf("--only") + 1]
  : undefined;
const runs = process.argv.includes("--runs")
  ? Math.max(1, Number(process.argv[process.argv.indexOf("--runs") + 1]) || 1)
  : 1;

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
    const response = await page.goto(`${BASE}/`);
    if (!response?.ok()) throw new Error(`the home page answered ${response?.status()}`);
    // Unset until the loader runs, then loading, then ready or unavailable.
    await page.waitForFunction(() =>
      ["ready", "unavailable"].includes(document.documentElement.dataset.serviceSdk ?? ""),
    );
    const state = await page.evaluate(() => document.documentElement.dataset.serviceSdk);
    if (state !== "ready") throw new Error(`the service SDK did not load (state: ${state})`);
  } finally {
    await browser.close();
  }
}

/**
 * Cumulative layout shift of one page load, as Chromium reports it: layout-shift entries not
 * caused by input, summed, after the SDK is ready and has had time to fill its teasers.
 */
async function layoutShifts(cookie: string) {
  const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
  const rows: { page: string; viewport: string; cls: number }[] = [];
  try {
    for (const viewport of VIEWPORTS) {
      const context = await browser.newContext({
        extraHTTPHeaders: { Cookie: cookie },
        viewport: { width: viewport.width, height: viewport.height },
      });
      await context.addInitScript(() => {
        const w = window as unknown as { __cls: number };
        w.__cls = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as {
            value: number;
            hadRecentInput: boolean;
          }[]) {
            if (!entry.hadRecentInput) w.__cls += entry.value;
          }
        }).observe({ type: "layout-shift", buffered: true });
      });
      for (const page of SHIFT_PAGES) {
        const tab = await context.newPage();
        await tab.goto(`${BASE}${page.path}`);
        await tab.waitForFunction(() => document.documentElement.dataset.serviceSdk === "ready");
        // Every teaser slot filled (the SDK's last change to the page), then a moment more
        // (the open inspector polls, so the network never goes idle).
        await tab.waitForFunction(
          () =>
            document.querySelectorAll(".service-teaser").length ===
            document.querySelectorAll(".service-teaser > [data-service-teaser]").length,
        );
        await tab.waitForTimeout(1500);
        const cls = await tab.evaluate(() => (window as unknown as { __cls: number }).__cls);
        rows.push({ page: page.name, viewport: viewport.name, cls: Math.round(cls * 1000) / 1000 });
        console.log(
          `layout shift  ${viewport.name.padEnd(8)} ${page.name.padEnd(9)} CLS ${cls.toFixed(3)}`,
        );
        await tab.close();
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return rows;
}

/** Requests/s and p99 of one URL at 20 concurrent clients for 10 s. */
async function throughput(url: string, cookie: string) {
  const result = await autocannon({
    url,
    connections: 20,
    duration: 10,
    headers: { cookie },
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${url}: ${failed} failed requests`);
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
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
      // Lighthouse needs the full browser (Chrome's new headless mode), not the headless shell.
      env: { ...process.env, CHROME_PATH: ensureBrowser("full") },
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
      stdio: process.env.BENCH_DEBUG ? "inherit" : "ignore",
    },
  );
  await waitFor(`${BASE}/`, "the storefront");
  await assertSdkLoads(cookie);
  const results: Record<string, unknown> = {};
  if (!only || only === "cls") results.layoutShift = await layoutShifts(cookie);
  if (!only || only === "throughput") {
    const product = await throughput(`${BASE}/products/aurora-x1`, cookie);
    const file = await throughput(`${BASE}/products/aurora-x1.svg`, cookie);
    results.throughput = { product, staticFile: file };
    console.log(
      `throughput    product page ${product.requestsPerSecond} req/s, p99 ${product.p99Ms} ms; static file ${file.requestsPerSecond} req/s, p99 ${file.p99Ms} ms (20 clients, 10 s each)`,
    );
  }
  if (!only || only === "lighthouse") {
    const rows = [];
    for (const page of PAGES) {
      const scores = [];
      for (let run = 0; run < runs; run++) scores.push(lighthouse(`${BASE}${page.path}`, cookie));
      const performance = scores.map((x) => x.performance);
      const accessibility = scores.map((x) => x.accessibility);
      const last = scores.at(-1);
      rows.push({ page: page.name, runs, performance, accessibility, last });
      console.log(
        `lighthouse    ${page.name.padEnd(9)} performance min ${Math.min(...performance)} median ${median(performance)}  accessibility min ${Math.min(...accessibility)} median ${median(accessibility)}  (${runs} ${runs === 1 ? "run" : "runs"}; last: FCP ${last?.fcp} LCP ${last?.lcp} TBT ${last?.tbt} CLS ${last?.cls})${last?.failedA11y.length ? `  a11y: ${last.failedA11y.join(", ")}` : ""}`,
      );
    }
    results.lighthouse = rows;
  }
  mkdirSync(path.join(root, "bench-results"), { recursive: true });
  writeFileSync(
    path.join(root, "bench-results/pages.json"),
    `${JSON.stringify(results, null, 2)}\n`,
  );
  console.log(
    "Written to bench-results/pages.json (aims: CLS <= 0.02; product page >= 10x the first figure; Lighthouse performance >= 95, accessibility 100)",
  );
} finally {
  server?.kill("SIGTERM");
  emulator?.kill("SIGTERM");
}
