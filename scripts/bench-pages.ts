// `npm run bench:pages`: the shop's pages against the production build, with its own database
// and a cart in the session. The service emulator runs beside it and the SDK must be loaded on
// the page (checked in a real browser first), so the figures include the integration every shop
// page carries. Three figures, each printed:
// 1. Layout shift: cumulative layout shift of every shop page with the SDK loaded, at desktop
//    (1440×900, the inspector docked) and phone (390×844) sizes, from a PerformanceObserver in
//    Chromium (aim: <= 0.02 everywhere).
// 2. Server throughput, side by side from one run: the framework's floors (the benchmark's own
//    app, .bench/floor-page: a bare dynamic page with a nonce CSP, cookies() and headers() and a
//    12-item list; the same page with a list long enough to be the cart page's size; and a page
//    of the product page's size answered by its proxy, the fastest any Next page can be served
//    with a header of its own), the shop's pages (the catalog's stored pages, a stored search and
//    the pages rendered per request) and a static file of the shop's server,
//    20 concurrent clients for 10 s each after a 2 s warm-up (autocannon): requests/s, p99
//    latency and the ratios (aims: every page rendered per request >= 0.8x the bare page, p99
//    <= 250 ms; a stored catalog page >= 0.3x the static file, p99 <= 50 ms). `--profile` runs
//    the shop's server under `node --cpu-prof` and prints the profile's top entries by self time.
// 3. Lighthouse (mobile preset) on home, product, cart and checkout; `--runs N` (default 1)
//    repeats it and prints min and median (aim: performance >= 95, accessibility 100).
// `--only cls|throughput|lighthouse` runs one of them; `--pages product,cart` measures only those
// dynamic pages beside the bare page and the static file.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import autocannon from "autocannon";
import { sealData } from "iron-session";
import { CHROMIUM_LAUNCH_OPTIONS } from "./chromium-launch";
import { ensureBrowser } from "./ensure-browser.mjs";
import { summarizeFile } from "./lib/cpu-profile";
// @ts-expect-error: plain ESM helpers shared with the other scripts
import { loadEnv, root } from "./lib/env.mjs";
import { cpuMsOf } from "./lib/processes.mjs";
// @ts-expect-error: plain ESM helpers shared with the other scripts
import { prepareDatabase, run } from "./lib/run.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 3100);
const BASE = `http://localhost:${PORT}`;
const EMULATOR_PORT = Number(process.env.BENCH_EMULATOR_PORT ?? 4210);
const EMULATOR = `http://localhost:${EMULATOR_PORT}`;
const FLOOR_PORT = Number(process.env.BENCH_FLOOR_PORT ?? 3101);
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
/** `--pages product,cart`: only these dynamic pages in the throughput figure (to profile one). */
const pagesOnly = process.argv.includes("--pages")
  ? process.argv[process.argv.indexOf("--pages") + 1]?.split(",")
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

/** `--profile`: the shop's server runs under `node --cpu-prof`; its profile is summarized. */
const PROFILE_DIR = process.argv.includes("--profile")
  ? path.join(root, "bench-results/profile")
  : undefined;

/** The shop's pages measured beside the floors: the catalog's stored pages, then pages rendered
 *  per request (docs/decisions/catalog-rendering.md). */
const SHOP_PAGES = [
  { name: "home", path: "/" },
  { name: "product", path: "/products/aurora-x1" },
  { name: "category", path: "/category/phones" },
  { name: "search", path: "/search?q=aurora" },
  { name: "cart", path: "/cart" },
  { name: "checkout", path: "/checkout" },
  { name: "account", path: "/account" },
];

/** How the shop served a page, from its policy: a stored page's hashes or a nonce of its own. */
async function servedAs(url: string, cookie: string): Promise<string> {
  const response = await fetch(url, { headers: { cookie }, redirect: "manual" });
  await response.arrayBuffer();
  const policy = response.headers.get("content-security-policy") ?? "";
  if (/'sha256-/.test(policy) && !/'nonce-/.test(policy)) return "stored";
  return response.status === 200
    ? "rendered per request"
    : `rendered per request, ${response.status}`;
}

/** Items in the /sized floor page's list: its HTML is then about the size of the cart page's. */
const SIZED_ITEMS = 136;

/**
 * The framework's own floors, the benchmark's comparison pages: a Next app of the same
 * node_modules with a proxy that mints a nonce CSP per request (as the shop's proxy.ts does), a
 * page that reads cookies() and headers() and renders a 12-item list, the same page at /sized
 * with a list as long as makes it the size of the shop's cart page (about 25 KB of HTML with
 * its RSC payload: what rendering that many bytes costs Next, with no data behind them), and at
 * /answer a page of 24 KB that the proxy answers itself with a hash policy (what the shop's
 * stored catalog pages are, without their look-ups). Built into .bench/floor-page (inside the
 * repository so it resolves the same Next), again whenever these sources change.
 */
function ensureFloorPage(): string {
  const dir = path.join(root, ".bench/floor-page");
  const files: Record<string, string> = {
    "package.json": '{ "private": true, "type": "module" }\n',
    // Its own (empty) config and start-up hook: without them Next takes the enclosing shop's,
    // and the comparison page would run the shop's start-up work (its jobs, its database).
    "next.config.mjs": "export default {};\n",
    "instrumentation.js": "export async function register() {}\n",
    "proxy.js": `import { NextResponse } from "next/server";
const ANSWER = new TextEncoder().encode(\`<!DOCTYPE html><html lang="en"><body><main>\${"<p>Floor answer</p>".repeat(1300)}</main></body></html>\`);
export function proxy(request) {
  if (request.nextUrl.pathname === "/answer") {
    return new NextResponse(ANSWER, {
      headers: {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": "default-src 'self'; script-src 'self' 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='; object-src 'none'; base-uri 'self'; frame-ancestors 'none'",
        "cache-control": "private, no-cache, no-store, max-age=0, must-revalidate",
      },
    });
  }
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = \`default-src 'self'; script-src 'self' 'nonce-\${nonce}'; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'\`;
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", csp);
  return response;
}
export const config = { matcher: ["/((?!_next/|.*\\\\.[a-z0-9]+$).*)"] };
`,
    "app/layout.js": `export default function RootLayout({ children }) {
  return <html lang="en"><body>{children}</body></html>;
}
`,
    "app/list.js": `import { cookies, headers } from "next/headers";
export async function FloorList({ length }) {
  const jar = await cookies();
  const requestHeaders = await headers();
  const session = jar.get("shop_session")?.value ?? "";
  const items = Array.from({ length }, (_, i) => ({ id: i, name: \`Product \${i + 1}\`, price: 1999 + i * 100 }));
  return (
    <main>
      <h1>Floor page</h1>
      <p>{requestHeaders.get("accept-language") ?? "en"} {session.length}</p>
      <ul>{items.map((item) => <li key={item.id}>{item.name}: {(item.price / 100).toFixed(2)} EUR</li>)}</ul>
    </main>
  );
}
`,
    "app/page.js": `import { FloorList } from "./list";
export default function Page() {
  return <FloorList length={12} />;
}
`,
    "app/sized/page.js": `import { FloorList } from "../list";
export default function Page() {
  return <FloorList length={${SIZED_ITEMS}} />;
}
`,
  };
  const sources = JSON.stringify(files);
  const built = path.join(dir, ".next/sources.json");
  if (existsSync(built) && readFileSync(built, "utf8") === sources) return dir;
  mkdirSync(path.join(dir, "app/sized"), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  console.log("Building the comparison pages (.bench/floor-page)…");
  run(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: dir,
  });
  writeFileSync(built, sources);
  return dir;
}

/** Stops the profiled server (SIGINT: Node writes the profile on its way out) and prints the
 *  profile's top entries by self time, per function and per package. */
async function stopAndSummarize(child: ChildProcess, dir: string): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGINT");
  await exited;
  const newest = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => path.join(dir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (!newest) throw new Error(`no CPU profile written in ${dir}`);
  const summary = summarizeFile(newest, 20);
  console.log(`profile       ${newest}: ${summary.busyMs} ms busy, ${summary.idleMs} ms idle`);
  for (const e of summary.packages) {
    console.log(
      `profile  pkg  ${String(e.percent).padStart(5)}%  ${String(e.selfMs).padStart(6)} ms  ${e.name}`,
    );
  }
  for (const e of summary.functions) {
    console.log(
      `profile  fn   ${String(e.percent).padStart(5)}%  ${String(e.selfMs).padStart(6)} ms  ${e.name}`,
    );
  }
}

async function sessionWithCart(): Promise<string> {
  const { randomHex32, SESSION_COOKIE } = await import("../lib/session/session-data");
  const { addToCart } = await import("../lib/shop/cart");
  const { getDb } = await import("../lib/db/client");
  // Signed in as the first seeded shopper, so the account page renders rather than redirects.
  const customer = await getDb().customer.findFirstOrThrow({ orderBy: { createdAt: "asc" } });
  const data = {
    sessionId: randomHex32(),
    salt: randomHex32(),
    token: randomHex32(),
    currency: "EUR" as const,
    customerId: customer.id,
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

/** The headless shell the browser tests use, installed by the project's script when missing. */
function headlessShell() {
  return { ...CHROMIUM_LAUNCH_OPTIONS, executablePath: ensureBrowser() };
}

/** Fails the benchmark unless the SDK really loads on the measured pages. */
async function assertSdkLoads(cookie: string): Promise<void> {
  const browser = await chromium.launch(headlessShell());
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
  const browser = await chromium.launch(headlessShell());
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

/** Requests/s and p99 of one URL at 20 concurrent clients for 10 s (or `seconds`). */
async function throughput(url: string, cookie: string, seconds = 10) {
  const result = await autocannon({
    url,
    connections: 20,
    duration: seconds,
    headers: { cookie },
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${url}: ${failed} failed requests`);
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    requests: result["2xx"] + result.non2xx,
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
let floor: ChildProcess | undefined;
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
    [
      ...(PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : []),
      "node_modules/next/dist/bin/next",
      "start",
      "-p",
      String(PORT),
    ],
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
    // One run, side by side: the shop's dynamic pages, the framework's bare dynamic page (same
    // node_modules, nonce CSP, cookies() and headers()) and a static file of the shop's server.
    const floorDir = ensureFloorPage();
    floor = spawn(
      process.execPath,
      [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(FLOOR_PORT)],
      { cwd: floorDir, env: { ...process.env, NODE_ENV: "production" }, stdio: "ignore" },
    );
    await waitFor(`http://localhost:${FLOOR_PORT}/`, "the comparison page");
    const rows: {
      name: string;
      requestsPerSecond: number;
      p99Ms: number;
      cpuMsPerRequest: number;
    }[] = [];
    const measure = async (name: string, url: string, pid: number | undefined) => {
      // A warm-up first: the first requests compile and fill caches that later ones reuse.
      await throughput(url, cookie, 2);
      const cpuBefore = cpuMsOf(pid);
      const { requests, ...measured } = await throughput(url, cookie);
      const row = {
        name,
        ...measured,
        cpuMsPerRequest: Math.round(((cpuMsOf(pid) - cpuBefore) / requests) * 100) / 100,
      };
      rows.push(row);
      console.log(
        `throughput    ${name.padEnd(14)} ${String(row.requestsPerSecond).padStart(6)} req/s  p99 ${String(row.p99Ms).padStart(5)} ms  ${row.cpuMsPerRequest.toFixed(2).padStart(6)} ms of server CPU per request`,
      );
      return row;
    };
    const floorUrl = `http://localhost:${FLOOR_PORT}`;
    const bare = await measure("bare page", `${floorUrl}/`, floor.pid);
    const sized = await measure("sized page", `${floorUrl}/sized`, floor.pid);
    const answer = await measure("proxy answer", `${floorUrl}/answer`, floor.pid);
    const shopPages = SHOP_PAGES.filter((p) => !pagesOnly || pagesOnly.includes(p.name));
    const served = new Map<string, string>();
    for (const page of shopPages) {
      await measure(page.name, `${BASE}${page.path}`, server?.pid);
      served.set(page.name, await servedAs(`${BASE}${page.path}`, cookie));
    }
    const file = await measure("static file", `${BASE}/products/aurora-x1.svg`, server?.pid);
    for (const row of rows) {
      const how = served.get(row.name);
      console.log(
        `throughput    ${row.name.padEnd(14)} ${(row.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}x the bare page, ${(row.requestsPerSecond / sized.requestsPerSecond).toFixed(2)}x the sized page, ${(row.requestsPerSecond / file.requestsPerSecond).toFixed(3)}x the static file, ${(row.requestsPerSecond / answer.requestsPerSecond).toFixed(2)}x the proxy answer${how ? ` (${how})` : ""}`,
      );
    }
    results.throughput = { clients: 20, seconds: 10, rows };
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
    "Written to bench-results/pages.json (aims: CLS <= 0.02; pages rendered per request >= 0.8x the bare page with p99 <= 250 ms; stored catalog pages >= 0.3x the static file with p99 <= 50 ms; Lighthouse performance >= 95, accessibility 100)",
  );
} finally {
  floor?.kill("SIGTERM");
  emulator?.kill("SIGTERM");
  if (server && PROFILE_DIR) await stopAndSummarize(server, PROFILE_DIR);
  else server?.kill("SIGTERM");
}
