// `npm run test:budget -- [--load] [test files…]`: runs the given Vitest files (by default the
// heaviest of the unit and PostgreSQL steps, below) pinned to ONE core, one file at a time, and
// fails if any test used more than a third of its time limit: a test's work must fit its limit
// three times over on one core of a loaded machine, so another process sharing the core never
// turns it red. `--load` runs a second whole unit run pinned to the same core beside it, as the
// worst case measured. TEST_DATABASE=postgresql (with POSTGRES_PORT) measures on PostgreSQL.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { root } from "./lib/env.mjs";

const MARGIN = 3;
const CORE = process.env.TEST_BUDGET_CORE ?? "0";
// Without files named: these (every file with a fast-check property, a flood or a race that
// touches a database) and every file with a test over 1 s in the last run's reports.
const HEAVY = [
  "app/api/service/well-formed.test.ts",
  "emulator/test/limits.test.ts",
  "emulator/test/tenants.test.ts",
  "lib/service-adapter/notification-inbox.test.ts",
  "lib/service-adapter/concurrent-notifications.test.ts",
  "lib/session/revocation.test.ts",
  "lib/auth/login-throttle.test.ts",
  "lib/service-adapter/contract-cart.test.ts",
  "packages/kit/src/cart.test.ts",
];

/** A report's test file as a path of this checkout: the reports name files absolutely, in the
 *  checkout that ran them (a fresh-gate clone's, say), so the longest tail that exists here. */
function inThisCheckout(file) {
  const parts = path.resolve(file).split(path.sep);
  for (let i = 1; i < parts.length; i++) {
    const tail = parts.slice(i).join("/");
    if (existsSync(path.join(root, tail))) return tail;
  }
  return null;
}

/** Every file with a test that ran longer than 1 s in the last `npm test`'s unit and
 *  PostgreSQL steps (their JSON reports under test-results/), when those reports exist. */
function slowFilesOfLastRun() {
  const found = new Set();
  for (const report of ["test-results/unit.json", "test-results/unit-postgres.json"]) {
    let json;
    try {
      json = JSON.parse(readFileSync(path.join(root, report), "utf8"));
    } catch {
      continue;
    }
    for (const file of json.testResults ?? []) {
      if ((file.assertionResults ?? []).some((test) => (test.duration ?? 0) > 1000)) {
        const file_ = inThisCheckout(file.name);
        if (file_) found.add(file_);
      }
    }
  }
  return [...found];
}

const args = process.argv.slice(2);
const load = args.includes("--load");
const named = args.filter((arg) => arg !== "--load");
const files = named.length ? named : [...new Set([...HEAVY, ...slowFilesOfLastRun()])].sort();
console.log(
  `test:budget: ${files.length} files on core ${CORE}${load ? ", a unit run beside" : ""}`,
);
const dir = mkdtempSync(path.join(tmpdir(), "test-budget-"));
const out = path.join(dir, "budget.json");
const vitest = path.join(root, "node_modules/.bin/vitest");

const beside = load
  ? spawn("taskset", ["-c", CORE, vitest, "run", "--reporter=dot"], {
      cwd: root,
      stdio: "ignore",
      detached: true,
      env: { ...process.env, TEST_DATABASE: "" },
    })
  : undefined;

const measured = spawn(
  "taskset",
  [
    "-c",
    CORE,
    vitest,
    "run",
    ...files,
    "--maxWorkers=1",
    "--no-file-parallelism",
    "--reporter=dot",
    `--reporter=${path.join(root, "scripts/lib/budget-reporter.mjs")}`,
  ],
  { cwd: root, stdio: "inherit", env: { ...process.env, TEST_BUDGET_OUT: out } },
);
const code = await new Promise((resolve) => measured.on("exit", (c) => resolve(c ?? 1)));
// The load beside is this script's own process group: stop it whole.
if (beside?.pid) {
  try {
    process.kill(-beside.pid, "SIGTERM");
  } catch {}
}

let rows = [];
try {
  rows = JSON.parse(readFileSync(out, "utf8"));
} catch {
  console.error("test:budget: no report written");
  process.exit(code || 1);
}
rmSync(dir, { recursive: true, force: true });
rows.sort((a, b) => b.duration / b.limit - a.duration / a.limit);
const over = rows.filter((row) => row.duration * MARGIN > row.limit);
console.log(`\nSlowest against their limits (one core${load ? ", a unit run beside" : ""}):`);
// TEST_BUDGET_REPORT=<file>: every row, for a table.
if (process.env.TEST_BUDGET_REPORT)
  writeFileSync(process.env.TEST_BUDGET_REPORT, JSON.stringify(rows, null, 1));
for (const row of rows.filter((row, i) => i < 15 || row.duration * MARGIN > row.limit))
  console.log(
    `${row.duration * MARGIN > row.limit ? "✗" : " "} ${String(row.duration).padStart(6)} ms / ${String(row.limit).padStart(6)} ms  ${row.file} > ${row.name}`,
  );
if (over.length) {
  console.error(
    `\ntest:budget: ${over.length} test(s) used more than 1/${MARGIN} of their time limit.`,
  );
  process.exit(1);
}
console.log(`\ntest:budget: all ${rows.length} tests within 1/${MARGIN} of their limits.`);
process.exit(code);
