// `npm test`: every check, as a graph of steps (scripts/lib/step-graph.mjs): each runs once what
// it needs has passed, beside whatever shares nothing with it, as many at once as this process
// has cores (one core: one after the other). A header per step, its output whole when it ends;
// a failed step stops what needs it. Closes on one `N passed, N failed` line.
// (npm test has already run `npm install`.)
import { readFileSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { ensureBrowser } from "./ensure-browser.mjs";
import { cpuGroups } from "./lib/cpu-group.mjs";
import { loadEnv, root } from "./lib/env.mjs";
import { run } from "./lib/run.mjs";
import { command, runGraph } from "./lib/step-graph.mjs";
import { stopPostgres } from "./postgres.mjs";

loadEnv();
const started = Date.now();
// Busy CPU-seconds of the whole machine (/proc/stat): the servers the steps start count too,
// which a parent's wait() accounting misses. Nothing else runs on a CI machine.
const machineCpu = () => {
  const [user, nice, system, , , irq, softirq] = readFileSync("/proc/stat", "utf8")
    .split("\n")[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user + nice + system + irq + softirq) / 100;
};
const cpuAtStart = machineCpu();
// Whatever happens, this checkout's PostgreSQL is not left running on its port: the next run,
// perhaps from another clone, would find the port taken.
process.on("exit", () => stopPostgres());
// Each step's own CPU-seconds, every server it starts included: a cgroup per step (v1 cpuacct or
// v2, ./lib/cpu-group.mjs). None where cgroups cannot be written (no root): no per-step figure.
const stepGroups = cpuGroups(`npm-test-${process.pid}`);
process.on("exit", () => stepGroups?.close());
const bin = (name) => `${root}/node_modules/.bin/${name}`;

console.log("\n━━━ Browser and Prisma client ━━━");
const chromium = ensureBrowser();
// Every step's browser tests (the emulator's inspector test in the unit step too) use it.
process.env.CHROMIUM_PATH = chromium;
console.log(`Chromium: ${chromium}`);
run(process.execPath, ["scripts/prisma.mjs", "generate"]);

// The seeded database every storefront stack of the browser suites copies (scripts/e2e-stacks.mjs):
// made once, in the test-build step that each of them needs, not migrated and seeded again by
// each suite's start (docs/decisions/test-graph.md, "The stacks' start").
const stacksTemplate = `${root}/test-results/e2e-template.db`;
rmSync(stacksTemplate, { force: true });
process.env.E2E_DATABASE_TEMPLATE = stacksTemplate;

// Each runner also writes a JSON report, so the run can close on one plain count line.
const reports = {
  unit: "test-results/unit.json",
  unitPostgres: "test-results/unit-postgres.json",
  // Both browser suites (the SDK on the emulator's test page and the storefront) run once, inside
  // the SDK release suite against the emulator's own SDK build (scripts/sdk-release/run.ts).
  release: "sdk-release-report/results.json",
  screenshots: "test-results/screenshots.json",
  shopOwn: "test-results/shop-own.json",
  staging: "sdk-release-report-staging/results.json",
  cluster: "test-results/cluster.json",
  minimalShop: "test-results/minimal-shop.json",
  serverlessShop: "test-results/serverless-shop.json",
  demoBeside: "test-results/demo-beside-tests.json",
};
const reporter = `--reporter=${process.env.CI ? "line" : "list"},json`;
const playwrightEnv = (report) => ({
  ...process.env,
  PLAYWRIGHT_JSON_OUTPUT_FILE: `${root}/${report}`,
});
/** One command of a step, run from the repository's root. */
const sh =
  (file, args, env = process.env) =>
  (logFile, { wrap } = {}) =>
    command(logFile, file, args, { cwd: root, env, wrap });
/** Several commands of a step, one after the other. */
const each =
  (...commands) =>
  async (logFile, context) => {
    for (const one of commands) await one(logFile, context);
  };

// What the groups guard. "browser-suites": the storefront suites' stacks on :3800/:4800 and up and
// the SDK page on :4110 (their databases e2e*.db too), and two Chromium suites at once would each
// starve the other's time limits. "packs": packing rebuilds .emulator-pack/'s tarball, which the
// example hosts install and the unit step's packed-emulator test packs and installs too.
// Priority: the order below (the test build first: every browser suite waits on it).
const steps = [
  // The production build with the shop's test clock compiled in (lib/service-adapter/shop-clock.ts):
  // the browser suite moves it instead of waiting on real time. `npm run build` never has it.
  {
    id: "build",
    title: "Test build (next build, SHOP_TEST_CLOCK=1) and the stacks' seeded database",
    run: each(
      sh(bin("next"), ["build"], { ...process.env, SHOP_TEST_CLOCK: "1" }),
      sh(process.execPath, ["scripts/e2e-template.mjs", stacksTemplate]),
    ),
  },
  {
    id: "typecheck",
    title: "Typecheck (tsc --noEmit): the packages and the example hosts",
    run: each(
      // The shop's own tsconfig is not here: the test build type-checks its whole program (every
      // file it includes, tests and scripts too, with the route types it writes) and fails on an
      // error, so a `tsc --noEmit` of it here would only check it twice.
      // The packages' sources with their tests, by each package's own tsconfig (nodenext, no shop
      // paths); the example hosts by theirs (they import the kit by package name, like this shop).
      ...[
        "packages/kit",
        "packages/drizzle-adapter",
        "packages/prisma-adapter",
        "packages/kysely-adapter",
        // The minimal shop's own files are pages over the quick start of docs/integrating.md:
        // its `next build` in scripts/minimal-shop.mjs type-checks them with the quick start's.
        "examples/minimal-shop/e2e/tsconfig.typecheck.json",
        "examples/serverless-shop",
        "examples/serverless-shop/e2e/tsconfig.typecheck.json",
      ].map((project) => sh(bin("tsc"), ["--noEmit", "-p", project])),
    ),
  },
  { id: "lint", title: "Lint and format (biome check)", run: sh(bin("biome"), ["check", "."]) },
  // The project's PostgreSQL (Debian's, installed when missing), started once for every step that
  // uses it, each in databases of its own; stopped when npm test exits.
  {
    id: "postgres",
    title: "PostgreSQL (scripts/postgres.mjs)",
    run: sh(process.execPath, ["scripts/postgres.mjs", "start"]),
  },
  // Alone: its two browser suites keep every core busy (a storefront stack per core beside the SDK
  // page's workers). The SDK team runs it as its own command in a fresh clone; here it has the
  // machine as it has there, and its time is that command's time.
  {
    id: "release",
    title: "SDK release suite: both browser suites against the emulator's own SDK build",
    needs: ["build"],
    holds: ["browser-suites"],
    alone: true,
    run: sh(bin("tsx"), ["scripts/sdk-release/run.ts"]),
  },
  // The kit and adapters as an integrator receives them: npm pack, publint and
  // @arethetypeswrong/cli on each tarball, an offline install into an empty folder, each entry
  // imported from plain Node and a consumer file type-checked against it.
  {
    id: "packages",
    title: "Packages: pack, lint and install",
    holds: ["packs"],
    run: sh(process.execPath, ["scripts/packages-check.mjs"]),
  },
  // Every TypeScript block of docs/integrating.md and the packages' READMEs, type-checked with
  // strict against the packed packages installed outside the repository (scripts/check-snippets.mjs).
  {
    id: "snippets",
    title: "Docs: every code block compiles against the packed packages",
    holds: ["packs"],
    run: sh(process.execPath, ["scripts/check-snippets.mjs"]),
  },
  // docs/api/, TypeDoc's reference of every entry, regenerated and compared; an export or member
  // of any entry lacking a doc comment fails it (scripts/api-reference.mjs).
  {
    id: "api-reference",
    title: "Docs: the API reference is current; every entry fully documented",
    run: sh(process.execPath, ["scripts/api-reference.mjs", "--check"]),
  },
  {
    id: "unit",
    title: "Unit tests (vitest run)",
    holds: ["packs"],
    run: sh(bin("vitest"), [
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${reports.unit}`,
    ]),
  },
  // The storefront journeys the release suite leaves out (scripts/sdk-release/selection.ts
  // SHOP_OWN): the shop's own features, the demo guide, the service's variant readings. With the
  // release run, every storefront test runs once.
  {
    id: "shop-own",
    title: "Storefront: the shop's own journeys (beside the release suite's)",
    needs: ["build"],
    holds: ["browser-suites"],
    run: sh(
      bin("tsx"),
      ["scripts/sdk-release/shop-own.ts", reporter],
      playwrightEnv(reports.shopOwn),
    ),
  },
  // The same database tests on PostgreSQL, the scale-out database.
  {
    id: "unit-postgres",
    title: "Unit and route tests on PostgreSQL (TEST_DATABASE=postgresql)",
    needs: ["postgres"],
    run: sh(
      bin("vitest"),
      [
        "run",
        "lib",
        "app",
        "prisma",
        // The Drizzle adapter's conformance on PostgreSQL (its SQLite run is in the unit step).
        "packages/drizzle-adapter/src/pg",
        // The Prisma adapter's conformance and shipped PostgreSQL migration on PostgreSQL.
        "packages/prisma-adapter/src/pg",
        "packages/prisma-adapter/src/migrations.test.ts",
        // The Kysely adapter's conformance, own checks and row locks on PostgreSQL.
        "packages/kysely-adapter/src/pg",
        // The serverless shop's adapter as it configures it (its callbacks, Better Auth).
        "examples/serverless-shop/lib/service",
        // One worker per core, not the SQLite step's two: here the database's own processes
        // share the cores.
        `--maxWorkers=${availableParallelism()}`,
        "--reporter=default",
        "--reporter=json",
        `--outputFile.json=${reports.unitPostgres}`,
      ],
      { ...process.env, TEST_DATABASE: "postgresql" },
    ),
  },
  // The release suite's storefront selection in its staging mode (--no-emulator), against an
  // emulator on a port of its own standing in for the staging service: green with a correct SDK,
  // and the report's declarations of what needs the bundled emulator agree with what ran.
  {
    id: "staging",
    title: "SDK release suite without the bundled emulator: the staging mode against a stand-in",
    needs: ["build"],
    holds: ["browser-suites"],
    run: sh(bin("tsx"), ["scripts/sdk-release/staging.ts"]),
  },
  // The second host: docs/integrating.md's quick start (Prisma 6 on SQLite, iron-session), its
  // files taken from the page, with the minimal shop's pages, the kit and the Prisma adapter
  // installed offline from their tarballs into a folder outside this repository, built there,
  // against the packed emulator installed from its tarball: its conformance test, go-live
  // scenarios 1-3 and its own journeys in Chromium, then the readiness report with --strict
  // --active.
  {
    id: "minimal-shop",
    title: "Second host: the quick start (the minimal shop) against the packed emulator",
    holds: ["packs"],
    run: sh(process.execPath, ["scripts/minimal-shop.mjs"]),
  },
  // The demo guide's pictures (docs/screenshots/) compared with the screens of this build: their
  // own run on one stack, not inside the SDK release suite, where a candidate SDK's new look must
  // not fail the shop's guide. `npm run screenshots:update` retakes them.
  {
    id: "screenshots",
    title: "Demo guide screenshots (playwright.screenshots.config.ts)",
    needs: ["build"],
    holds: ["browser-suites"],
    run: sh(
      bin("playwright"),
      ["test", "-c", "playwright.screenshots.config.ts", reporter],
      playwrightEnv(reports.screenshots),
    ),
  },
  // The third host (examples/serverless-shop: Next.js, Drizzle on PostgreSQL, Better Auth, a card
  // stand-in confirmed in the browser, no resident process), installed and run the same way, with
  // a database of its own on the project's PostgreSQL.
  {
    id: "serverless-shop",
    title: "Third host: the serverless shop against the packed emulator",
    needs: ["postgres"],
    holds: ["packs"],
    run: sh(process.execPath, ["scripts/serverless-shop.mjs"]),
  },
  // `npm run demo` and the browser suite at once (README): the real demo (its own build folder,
  // database and ports), a second start refused, two journeys beside it on the suite's ports,
  // then the demo still answering, its database and build as they were.
  {
    id: "demo-beside",
    title: "The demo and the browser suite side by side",
    needs: ["build"],
    holds: ["browser-suites"],
    run: sh(bin("tsx"), ["scripts/demo-beside-tests.ts"]),
  },
  // Two instances on PostgreSQL behind Debian's nginx (installed when missing): the project
  // `cluster` (playwright.cluster.config.ts, docs/decisions/scaling.md).
  {
    id: "cluster",
    title: "Browser tests of the storefront at scale (project cluster)",
    needs: ["build", "postgres"],
    holds: ["browser-suites"],
    run: sh(
      bin("playwright"),
      ["test", "-c", "playwright.cluster.config.ts", reporter],
      playwrightEnv(reports.cluster),
    ),
  },
];

const slots = availableParallelism();
console.log(`\n${steps.length} steps, up to ${slots} at once (the cores this process may use)`);
const results = await runGraph(steps, {
  slots,
  logDir: `${root}/test-results/steps`,
  cpu: stepGroups,
});
const wall = (Date.now() - started) / 1000;
const cpu = machineCpu() - cpuAtStart;
console.log("\nSteps:");
for (const step of steps) {
  const r = results.get(step.id);
  console.log(
    `  ${r?.outcome === "passed" ? "✓" : r?.outcome === "failed" ? "✗" : "↷"} ${step.title}: ${r?.seconds === undefined ? r?.outcome : `${r.seconds.toFixed(1)} s`}${r?.cpuSeconds === undefined ? "" : `, ${r.cpuSeconds.toFixed(1)} CPU-s`}`,
  );
}
const stepsCpu = [...results.values()].reduce((sum, r) => sum + (r.cpuSeconds ?? 0), 0);
console.log(
  stepGroups
    ? `Steps' own CPU (a cgroup each, their servers included): ${stepsCpu.toFixed(0)} CPU-seconds`
    : "Steps' own CPU: not measured (no writable cgroup on this machine)",
);
console.log(
  `Checks: ${wall.toFixed(0)} s wall, ${cpu.toFixed(0)} CPU-seconds of the machine (/proc/stat), ${(cpu / wall).toFixed(2)} cores busy on average`,
);
const notPassed = steps.filter((step) => results.get(step.id)?.outcome !== "passed");
if (notPassed.length > 0) {
  // A failed step's log was printed whole above, but a CI page often keeps only the run's tail:
  // its failure lines are repeated here, where the tail holds them.
  for (const step of notPassed.filter((s) => results.get(s.id)?.outcome === "failed")) {
    console.error(
      `\n✗ ${step.title}: its failure lines (whole log: test-results/steps/${step.id}.log)`,
    );
    for (const line of failureLines(`${root}/test-results/steps/${step.id}.log`)) {
      console.error(`  ${line}`);
    }
  }
  for (const step of notPassed) {
    const r = results.get(step.id);
    console.error(
      r?.outcome === "failed"
        ? `✗ failed: ${step.title}`
        : `↷ not run: ${step.title} (it needs a step that failed: ${r?.reason})`,
    );
  }
  process.exit(1);
}
/** The lines of a step's log that say what failed (test runners' failure marks, errors,
 *  time-outs), without colour codes, at most 60. */
function failureLines(file) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return ["(no log)"];
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
  const plain = text.replace(/\u001b\[[0-9;]*m/g, "").split("\n");
  const marked = plain.filter((line) =>
    /(\bFAIL\b|✗|✘|×|\bError\b|[Tt]imed? ?out|AssertionError|expected .* to )/.test(line),
  );
  return marked.length > 60 ? [...marked.slice(0, 60), `… ${marked.length - 60} more`] : marked;
}

const json = (file) => JSON.parse(readFileSync(`${root}/${file}`, "utf8"));
const units = [json(reports.unit), json(reports.unitPostgres)];
const release = [reports.release, reports.staging].flatMap((file) =>
  json(file).builds.flatMap((b) => b.tests),
);
const screenshots = json(reports.screenshots).stats;
const shopOwn = json(reports.shopOwn).stats;
const cluster = json(reports.cluster).stats;
const minimalShop = json(reports.minimalShop).stats;
const serverlessShop = json(reports.serverlessShop).stats;
const demoBeside = json(reports.demoBeside);
const demoChecks = (outcome) => demoBeside.checks.filter((c) => c.outcome === outcome).length;
const passed =
  units.reduce((n, u) => n + u.numPassedTests, 0) +
  release.filter((t) => t.outcome === "passed").length +
  screenshots.expected +
  shopOwn.expected +
  cluster.expected +
  minimalShop.expected +
  serverlessShop.expected +
  demoChecks("passed") +
  demoBeside.journeys.expected;
const failed =
  units.reduce((n, u) => n + u.numFailedTests, 0) +
  release.filter((t) => t.outcome === "failed").length +
  screenshots.unexpected +
  screenshots.flaky +
  shopOwn.unexpected +
  shopOwn.flaky +
  cluster.unexpected +
  cluster.flaky +
  minimalShop.unexpected +
  minimalShop.flaky +
  serverlessShop.unexpected +
  serverlessShop.flaky +
  demoChecks("failed") +
  demoBeside.journeys.unexpected +
  demoBeside.journeys.flaky;
console.log(`\nAll checks passed in ${wall.toFixed(0)} s.`);
console.log(`${passed} passed, ${failed} failed`);
