// The demo and the browser suite side by side (README: `npm run demo` in one terminal, `npm test`
// in another), a step of `npm test`. Starts the real demo (scripts/demo.mjs, without `npm
// install`; reusing its build in .next-demo when no source changed since, building it
// otherwise), checks that a second start is refused and says where the first runs, runs two
// storefront journeys beside it on the suite's own ports (one stack: e2e/support/stack.ts), then
// checks that the demo still answers from its own production build, that none of its processes
// died, that its database and build are as they were and the suite's orders are in the suite's
// database, and stops it; then that a start with another program on the demo's port is refused
// (a stale lock aside). A demo of this checkout already running (someone's) is used as it is and
// left running; its database is then not compared (its user may be shopping).
// Writes test-results/demo-beside-tests.json.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import { stackOf } from "../e2e/support/stack";
import { DEMO_LOCK, demoAddresses, portTaken, runningDemo } from "./lib/demo-lock.mjs";
// @ts-expect-error: plain ESM helpers shared with the other scripts
import { loadEnv, root } from "./lib/env.mjs";

const ROOT: string = root;
const REPORT = path.join(ROOT, "test-results/demo-beside-tests.json");
const JOURNEYS_REPORT = path.join(ROOT, "test-results/demo-beside-tests-journeys.json");
/** A journey of the shop alone (an order paid by card, seen in the back office) and go-live
 *  scenario 1 (the service's SDK, Service Pay, the webhook): both servers of the suite's stack. */
const JOURNEYS = {
  files: ["e2e/shop-journey.e2e.ts", "e2e/service-pay.e2e.ts"],
  grep: "browse, add to cart, switch currency, log in, pay by card|go-live scenario 1: teaser, valuation, cart",
};
/** Written by the demo's shop on its own timers (job leases, service tokens, the inspector's log),
 *  whoever uses it: left out of the comparison of its database. */
const HOUSEKEEPING_TABLES = new Set(["Lease", "ServiceToken", "IntegrationLogEntry"]);

interface Check {
  name: string;
  outcome: "passed" | "failed" | "skipped";
  detail: string;
}
const checks: Check[] = [];
function check(name: string, ok: boolean, detail = ""): boolean {
  checks.push({ name, outcome: ok ? "passed" : "failed", detail });
  console.log(`${ok ? "✓" : "✗"} ${name}${detail ? ` (${detail})` : ""}`);
  return ok;
}
function skip(name: string, reason: string) {
  checks.push({ name, outcome: "skipped", detail: reason });
  console.log(`- ${name} (skipped: ${reason})`);
}

async function answer(url: string, init?: RequestInit): Promise<{ status: number; body: string }> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    return { status: 0, body: String(error) };
  }
}

/** Asks every 200 ms until `ready` holds, the deadline passes or `gaveUp` says stop. */
async function until(
  ready: () => Promise<boolean>,
  deadlineMs: number,
  gaveUp: () => boolean = () => false,
): Promise<boolean> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline && !gaveUp()) {
    if (await ready()) return true;
    await new Promise((done) => setTimeout(done, 200));
  }
  return ready();
}

/** Every row of the demo's tables but its housekeeping, hashed: equal before and after means
 *  nothing of the suite reached it. */
function databaseFingerprint(file: string): { hash: string; orders: number } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all() as { name: string }[];
    const hash = createHash("sha256");
    for (const { name } of tables) {
      if (HOUSEKEEPING_TABLES.has(name)) continue;
      hash.update(name);
      for (const row of db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all()) {
        hash.update(JSON.stringify(row));
      }
    }
    const { n } = db.prepare(`SELECT count(*) AS n FROM "Order"`).get() as { n: number };
    return { hash: hash.digest("hex").slice(0, 16), orders: n };
  } finally {
    db.close();
  }
}

const buildId = (dir: string) => {
  const file = path.join(ROOT, dir, "BUILD_ID");
  return existsSync(file) ? readFileSync(file, "utf8").trim() : null;
};

/** The sources a build of the shop is made of (the emulator and the tests are not among them). */
const SHOP_SOURCES = [
  "app",
  "lib",
  "prisma",
  "public",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.ts",
  "package-lock.json",
  "tsconfig.json",
];

/**
 * The demo's build in .next-demo exists and no source of the shop changed after it was made
 * (a checkout or pull since touches the files it changes): then the step reuses it. A stale one
 * is rebuilt, as `npm run demo` would: an older build against the migrated dev.db is not the demo.
 */
function demoBuildIsCurrent(): boolean {
  const stamp = path.join(ROOT, ".next-demo/BUILD_ID");
  if (!existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  const listed = spawnSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...SHOP_SOURCES],
    { cwd: ROOT, encoding: "utf8" },
  );
  if (listed.status !== 0) return false;
  return listed.stdout
    .split("\0")
    .filter(Boolean)
    .every(
      (file) =>
        !existsSync(path.join(ROOT, file)) || statSync(path.join(ROOT, file)).mtimeMs < built,
    );
}

/** Runs a command to its end without blocking this process (the demo's output keeps flowing). */
function finish(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  print: boolean,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    for (const stream of [child.stdout, child.stderr]) {
      stream.on("data", (chunk: Buffer) => {
        output += chunk;
        if (print) process.stdout.write(chunk);
      });
    }
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

/**
 * The hostile case of a start: a lock left by a demo killed with SIGKILL (its process gone) and
 * another program on the demo's shop port. The stale lock is no reason to refuse, the port is:
 * the demo says so and exits before installing, migrating or building anything.
 */
async function refusedBesideAnotherProgram(port: number): Promise<void> {
  const gone = spawnSync(process.execPath, ["-e", ""]).pid;
  mkdirSync(path.dirname(DEMO_LOCK), { recursive: true });
  writeFileSync(DEMO_LOCK, JSON.stringify({ pid: gone, shopUrl: "http://localhost:1" }));
  const squatter = createServer((_, response) => response.end("another program"));
  await new Promise<void>((done) => squatter.listen(port, done));
  try {
    const start = await finish(
      process.execPath,
      ["scripts/demo.mjs", "--no-install"],
      process.env,
      false,
    );
    const said = `Port ${port} (the demo's shop`;
    check(
      "npm run demo beside another program on its port refuses, naming the port (a stale lock aside)",
      start.code === 1 && start.output.includes(said) && !existsSync(DEMO_LOCK),
      start.code === 1 && start.output.includes(said)
        ? `exit 1: "${said}, … is taken by another program"`
        : `exit ${start.code}: ${start.output.trim().split("\n").slice(-3).join(" | ")}`,
    );
  } finally {
    await new Promise((done) => squatter.close(done));
    // Only the stale lock written here, should the demo have left it.
    if (existsSync(DEMO_LOCK) && readFileSync(DEMO_LOCK, "utf8").includes(`"pid":${gone},`)) {
      rmSync(DEMO_LOCK, { force: true });
    }
  }
}

async function main(): Promise<boolean> {
  loadEnv();
  const demo = demoAddresses();
  const demoDatabase = process.env.DATABASE_URL?.startsWith("file:")
    ? path.resolve(ROOT, process.env.DATABASE_URL.slice("file:".length))
    : null;
  const stack = stackOf(0);

  // Which demo: this checkout's running one, or one started here; another program on the demo's
  // ports leaves nothing to start (the journeys still run beside it).
  const existing = runningDemo();
  let started: ChildProcess | null = null;
  let demoOutput = "";
  if (existing) {
    console.log(
      `The demo of this checkout runs already (pid ${existing.pid}): the journeys run beside it and leave it running.`,
    );
  } else if ((await portTaken(demo.shopPort)) || (await portTaken(demo.emulatorPort))) {
    console.log(
      `Ports ${demo.shopPort}/${demo.emulatorPort} are taken by another program: no demo to start here.`,
    );
  } else {
    const args = ["scripts/demo.mjs", "--no-install"];
    if (demoBuildIsCurrent()) args.push("--no-build");
    console.log(
      `Starting the demo: node ${args.join(" ")}${args.includes("--no-build") ? " (.next-demo is newer than every source it is built from)" : " (no current demo build: it builds .next-demo first)"}`,
    );
    started = spawn(process.execPath, args, {
      cwd: ROOT,
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    // Whatever ends this run, the demo it started does not outlive it on the demo's ports.
    const child = started;
    process.on("exit", () => {
      if (child.exitCode === null) child.kill("SIGINT");
    });
    for (const stream of [started.stdout, started.stderr]) {
      stream?.on("data", (chunk: Buffer) => {
        demoOutput += chunk;
      });
    }
  }
  const demoExited = () => started !== null && started.exitCode !== null;
  const demoAnswers = async () =>
    (await answer(`${demo.shopUrl}/`)).status === 200 &&
    (await answer(`${demo.emulatorUrl}/__emulator/health`)).status === 200;

  const haveDemo = existing !== null || started !== null;
  let lock = existing;
  if (started) {
    // A first build of .next-demo on a busy two-core machine takes minutes; a start, seconds.
    const up = await until(demoAnswers, 15 * 60_000, demoExited);
    lock = runningDemo();
    if (
      !check(
        "the demo starts (scripts/demo.mjs) and answers at its shop and emulator",
        up && lock !== null,
        `${demo.shopUrl}, ${demo.emulatorUrl}`,
      )
    ) {
      console.log(demoOutput.split("\n").slice(-40).join("\n"));
    }
  }

  let before: {
    fingerprint: { hash: string; orders: number } | null;
    demoBuild: string | null;
    suiteBuild: string | null;
  } | null = null;
  if (haveDemo && lock) {
    // A real demo, not the suite's test build: its shop has no test clock.
    const clock = await answer(`${demo.shopUrl}/api/test/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advance_seconds: 0 }),
    });
    check(
      "the demo serves its own production build (no test clock: POST /api/test/clock is 404)",
      clock.status === 404,
      `answered ${clock.status}`,
    );
    before = {
      fingerprint: existing || !demoDatabase ? null : databaseFingerprint(demoDatabase),
      demoBuild: buildId(".next-demo"),
      suiteBuild: buildId(".next"),
    };
    const second = await finish(
      process.execPath,
      ["scripts/demo.mjs", "--no-install"],
      process.env,
      false,
    );
    const said = `already running at ${lock.shopUrl} (pid ${lock.pid}`;
    check(
      "npm run demo started a second time refuses, saying where the first runs",
      second.code === 1 && second.output.includes(said) && runningDemo()?.pid === lock.pid,
      second.code === 1 && second.output.includes(said)
        ? `exit 1: "…${said}…"`
        : `exit ${second.code}: ${second.output.trim().split("\n").slice(-3).join(" | ")}`,
    );
  } else if (!haveDemo) {
    skip("the demo starts and answers", "its ports are taken by another program");
  }

  // The journeys, on the suite's own ports and database, with the demo up.
  mkdirSync(path.dirname(JOURNEYS_REPORT), { recursive: true });
  const journeys = await finish(
    path.join(ROOT, "node_modules/.bin/playwright"),
    [
      "test",
      ...JOURNEYS.files,
      "--project",
      "storefront",
      "-g",
      JOURNEYS.grep,
      `--reporter=${process.env.CI ? "line" : "list"},json`,
    ],
    { ...process.env, E2E_WORKERS: "1", PLAYWRIGHT_JSON_OUTPUT_FILE: JOURNEYS_REPORT },
    true,
  );
  const stats = existsSync(JOURNEYS_REPORT)
    ? (JSON.parse(readFileSync(JOURNEYS_REPORT, "utf8")).stats as {
        expected: number;
        unexpected: number;
        flaky: number;
        skipped: number;
      })
    : { expected: 0, unexpected: 0, flaky: 0, skipped: 0 };
  check(
    `two storefront journeys pass beside it on the suite's own ports (${stack.shopUrl}, ${stack.emulatorUrl})`,
    journeys.code === 0 && stats.expected === 2 && stats.unexpected === 0 && stats.flaky === 0,
    `${stats.expected} passed, ${stats.unexpected} failed`,
  );
  const suiteOrders = existsSync(path.join(ROOT, stack.databaseFile))
    ? (() => {
        const db = new Database(path.join(ROOT, stack.databaseFile), { readonly: true });
        try {
          return (db.prepare(`SELECT count(*) AS n FROM "Order"`).get() as { n: number }).n;
        } finally {
          db.close();
        }
      })()
    : 0;
  check(
    "the journeys' orders are in the suite's own database",
    suiteOrders >= 2,
    `${stack.databaseFile}: ${suiteOrders} orders`,
  );

  if (haveDemo && lock && before) {
    const shop = await answer(`${demo.shopUrl}/products/aurora-x1`);
    check(
      "the demo's shop still answers (a product page)",
      shop.status === 200 && shop.body.includes("Aurora X1"),
      `${demo.shopUrl}/products/aurora-x1: ${shop.status}`,
    );
    const health = await answer(`${demo.emulatorUrl}/__emulator/health`);
    check(
      "the demo's service emulator still answers",
      health.status === 200,
      `${demo.emulatorUrl}/__emulator/health: ${health.status}`,
    );
    const died = demoOutput.split("\n").filter((line) => line.includes("DIED"));
    check(
      "none of the demo's processes died, and it is still the same demo",
      died.length === 0 && !demoExited() && runningDemo()?.pid === lock.pid,
      died.length ? died.join(" | ") : `pid ${lock.pid}`,
    );
    check(
      "the demo's build and the suite's build are as they were",
      buildId(".next-demo") === before.demoBuild && buildId(".next") === before.suiteBuild,
      `.next-demo ${before.demoBuild}, .next ${before.suiteBuild}`,
    );
    if (before.fingerprint && demoDatabase) {
      const after = databaseFingerprint(demoDatabase);
      check(
        "the demo's database is as it was",
        after.hash === before.fingerprint.hash && after.orders === before.fingerprint.orders,
        `${path.relative(ROOT, demoDatabase)}: ${after.orders} orders, rows ${after.hash} (before ${before.fingerprint.orders}, ${before.fingerprint.hash})`,
      );
    } else {
      skip(
        "the demo's database is as it was",
        existing ? "a demo someone runs: its user may change it" : "not a SQLite file",
      );
    }
  }

  if (started) {
    const child = started;
    const exited = new Promise((done) => child.once("exit", done));
    if (!demoExited()) child.kill("SIGINT");
    await exited;
    const free = await until(
      async () => !(await portTaken(demo.shopPort)) && !(await portTaken(demo.emulatorPort)),
      30_000,
    );
    check(
      "the demo stops on Ctrl-C: its ports free, its lock gone",
      free && runningDemo() === null,
    );
    if (free) await refusedBesideAnotherProgram(demo.shopPort);
  }
  const ok =
    checks.every((c) => c.outcome !== "failed") && stats.unexpected === 0 && stats.flaky === 0;
  if (!ok && demoOutput)
    console.log(`The demo's last output:\n${demoOutput.split("\n").slice(-30).join("\n")}`);
  writeFileSync(REPORT, `${JSON.stringify({ checks, journeys: stats }, null, 2)}\n`);
  return ok;
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
