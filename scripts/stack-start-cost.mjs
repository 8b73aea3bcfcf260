// `node scripts/stack-start-cost.mjs [--load 0,2,4,8] [--runs 3] [--stacks 2]`: what a browser
// suite's storefront stacks cost to start, by part, and how their wall time grows with the
// machine's load. Starts the stacks exactly as a browser suite does (scripts/e2e-stacks.mjs, the
// command of playwright.config.ts's web server), `--runs` times beside K CPU-bound processes for
// each K of `--load`, and prints each part's wall and CPU-seconds (a cgroup each, where the
// machine allows: scripts/lib/cpu-group.mjs) and the median per K. A start past Playwright's 90 s
// web server limit is marked. Ports: E2E_SHOP_PORT and EMULATOR_PORT as the suites read them
// (e2e/support/stack.ts); set both to a range of your own when another suite may run.
// `--template <file>`: the stacks copy that seeded database instead of migrating and seeding
// (E2E_DATABASE_TEMPLATE, as npm test's browser steps do).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { root } from "./lib/env.mjs";

const { values } = parseArgs({
  options: {
    load: { type: "string", default: "0,2,4,8" },
    runs: { type: "string", default: "3" },
    stacks: { type: "string", default: "2" },
    template: { type: "string" },
  },
});
const loads = values.load.split(",").map(Number);
const runs = Number(values.runs);
const LIMIT_S = 90;
const shopBase = Number(process.env.E2E_SHOP_PORT ?? 3800);
const emulatorBase = Number(process.env.EMULATOR_PORT ?? 4800);
// As e2e/support/stack.ts's stackOf: the same ports, URLs and database files.
const stacks = Array.from({ length: Number(values.stacks) }, (_, index) => ({
  index,
  shopPort: shopBase + index,
  shopUrl: `http://localhost:${shopBase + index}`,
  emulatorPort: emulatorBase + index,
  emulatorUrl: `http://localhost:${emulatorBase + index}`,
  assetsUrl: `http://localhost:${emulatorBase + index}/assets`,
  databaseFile:
    shopBase !== 3800
      ? `e2e-${shopBase + index}.db`
      : index === 0
        ? "e2e.db"
        : `e2e-${index + 1}.db`,
}));

/** K processes that each want a whole core, for as long as they run. */
function competitors(k) {
  return Array.from({ length: k }, () =>
    spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
  );
}

/** One start of every stack; resolves with the stacks script's figures (its E2E_STACKS_TIMES)
 *  or, past twice the limit, with what it still waited for. */
function startOnce(dir) {
  const times = path.join(dir, `times-${Date.now()}.json`);
  return new Promise((resolve) => {
    const began = Date.now();
    const child = spawn(process.execPath, ["scripts/e2e-stacks.mjs"], {
      cwd: root,
      env: {
        ...process.env,
        E2E_STACKS: JSON.stringify(stacks),
        E2E_STACKS_TIMES: times,
        ...(values.template ? { E2E_DATABASE_TEMPLATE: path.resolve(values.template) } : {}),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let errors = "";
    child.stderr.on("data", (chunk) => {
      errors += chunk;
    });
    const giveUp = setTimeout(() => child.kill("SIGTERM"), 2 * LIMIT_S * 1000);
    let answered = false;
    child.stdout.on("data", (chunk) => {
      if (answered || !/^every stack answers/m.test(String(chunk))) return;
      answered = true;
      const wall = (Date.now() - began) / 1000;
      child.kill("SIGTERM");
      resolve({ wall, ...JSON.parse(readFileSync(times, "utf8")) });
    });
    child.on("exit", () => {
      clearTimeout(giveUp);
      if (!answered) resolve({ wall: null, errors: errors.trim().split("\n").slice(-5) });
    });
  }).then(
    (result) =>
      // The stacks script stops its servers on SIGTERM; the next start needs their ports.
      new Promise((done) => setTimeout(() => done(result), 1_000)),
  );
}

const median = (xs) => {
  const sorted = xs.filter((x) => typeof x === "number").sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : null;
};
const f = (x) => (typeof x === "number" ? x.toFixed(1) : "–");

const dir = mkdtempSync(path.join(tmpdir(), "stack-start-cost-"));
const summary = [];
try {
  for (const k of loads) {
    const load = competitors(k);
    const results = [];
    try {
      for (let i = 0; i < runs; i++) {
        const r = await startOnce(dir);
        results.push(r);
        if (r.wall === null) {
          console.log(
            `K=${k} run ${i + 1}: no start within ${2 * LIMIT_S} s: ${r.errors.join(" | ")}`,
          );
          continue;
        }
        const servers = Object.entries(r.servers)
          .map(([name, p]) => `${name} ${f(p.wall)} s/${f(p.cpu)} CPU-s`)
          .join(", ");
        console.log(
          `K=${k} run ${i + 1}: ${f(r.wall)} s${r.wall > LIMIT_S ? ` ✗ over Playwright's ${LIMIT_S} s` : ""}; migrate ${f(r.migrate.wall)} s/${f(r.migrate.cpu)} CPU-s, seed ${f(r.seed.wall)} s/${f(r.seed.cpu)} CPU-s; ${servers}`,
        );
      }
    } finally {
      for (const p of load) p.kill("SIGKILL");
    }
    const ok = results.filter((r) => r.wall !== null);
    const cpuTotal = (r) =>
      [r.migrate.cpu, r.seed.cpu, ...Object.values(r.servers).map((p) => p.cpu)].reduce(
        (a, b) => a + (b ?? 0),
        0,
      );
    summary.push({
      k,
      wall: median(ok.map((r) => r.wall)),
      cpu: median(ok.map(cpuTotal)),
      prepare: median(ok.map((r) => r.migrate.wall + r.seed.wall)),
      failed: results.length - ok.length,
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`\nMedians over ${runs} starts of ${stacks.length} stacks:`);
console.log("   K   wall s   database s   CPU-s   cores it got (CPU-s / wall)");
for (const s of summary) {
  console.log(
    `  ${String(s.k).padStart(2)}  ${f(s.wall).padStart(7)}  ${f(s.prepare).padStart(11)}  ${f(s.cpu).padStart(6)}   ${s.wall && s.cpu ? (s.cpu / s.wall).toFixed(2) : "–"}${s.failed ? `  (${s.failed} with no start)` : ""}`,
  );
}
