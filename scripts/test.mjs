// `npm test`: every check in one go, with a header per step; stops at the first failure.
// (npm test has already run `npm install`.)
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { ensureBrowser } from "./ensure-browser.mjs";
import { loadEnv, root } from "./lib/env.mjs";
import { run } from "./lib/run.mjs";
import { stopPostgres } from "./postgres.mjs";

loadEnv();
const started = Date.now();
// Whatever happens, this checkout's PostgreSQL is not left running on its port: the next run,
// perhaps from another clone, would find the port taken.
process.on("exit", () => stopPostgres());
const bin = (name) => `${root}/node_modules/.bin/${name}`;

function step(title, fn) {
  const t = Date.now();
  console.log(`\n━━━ ${title} ${"━".repeat(Math.max(3, 60 - title.length))}`);
  fn();
  console.log(`✓ ${title} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
}

let chromium = "";
step("Browser", () => {
  chromium = ensureBrowser();
  // Every step's browser tests (the emulator's inspector test in the unit step too) use it.
  process.env.CHROMIUM_PATH = chromium;
  console.log(`Chromium: ${chromium}`);
});
step("Prisma client", () => run(process.execPath, ["scripts/prisma.mjs", "generate"]));
step("Typecheck (tsc --noEmit)", () => {
  run(bin("tsc"), ["--noEmit"]);
  // The kit's sources with their tests, by the package's own tsconfig (nodenext, no shop paths).
  run(bin("tsc"), ["--noEmit", "-p", "packages/kit"]);
  run(bin("tsc"), ["--noEmit", "-p", "packages/drizzle-adapter"]);
  run(bin("tsc"), ["--noEmit", "-p", "packages/prisma-adapter"]);
  // The second host has its own tsconfig (it imports the kit by package name, like this shop).
  run(bin("tsc"), ["--noEmit", "-p", "examples/minimal-shop"]);
  run(bin("tsc"), ["--noEmit", "-p", "examples/minimal-shop/e2e/tsconfig.typecheck.json"]);
  run(bin("tsc"), ["--noEmit", "-p", "examples/serverless-shop"]);
  run(bin("tsc"), ["--noEmit", "-p", "examples/serverless-shop/e2e/tsconfig.typecheck.json"]);
});
step("Lint and format (biome check)", () => run(bin("biome"), ["check", "."]));
// The kit as an integrator receives it: npm pack, publint and @arethetypeswrong/cli on the
// tarball, an offline install into an empty folder, each entry imported from plain Node and a
// consumer file type-checked against it (scripts/packages-check.mjs).
step("Packages: pack, lint and install", () =>
  run(process.execPath, ["scripts/packages-check.mjs"]),
);
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
step("Unit tests (vitest run)", () =>
  run(bin("vitest"), [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${reports.unit}`,
  ]),
);
// The same database tests on PostgreSQL, the scale-out database: vitest's global setup starts
// the project's cluster (scripts/postgres.mjs, installing Debian's postgresql when missing).
step("Unit and route tests on PostgreSQL (TEST_DATABASE=postgresql)", () =>
  run(
    bin("vitest"),
    [
      "run",
      "lib",
      "app",
      "prisma",
      // The Drizzle adapter's conformance on PostgreSQL (its SQLite run is in the step above).
      "packages/drizzle-adapter/src/pg",
      // The Prisma adapter's conformance and shipped PostgreSQL migration on PostgreSQL.
      "packages/prisma-adapter/src/pg",
      "packages/prisma-adapter/src/migrations.test.ts",
      // The serverless shop's adapter as it configures it (its callbacks, Better Auth) on PostgreSQL.
      "examples/serverless-shop/lib/service",
      // One worker per core, not the SQLite step's two: here the database's own processes share
      // the cores, and with four workers the login-flood tests starved their neighbours' 5 s
      // limits (the well-formed property test at 10 s, measured in a fresh-clone run).
      `--maxWorkers=${availableParallelism()}`,
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${reports.unitPostgres}`,
    ],
    { env: { ...process.env, TEST_DATABASE: "postgresql" } },
  ),
);
// The production build with the shop's test clock compiled in (lib/service-adapter/shop-clock.ts):
// the browser suite moves it instead of waiting on real time. `npm run build` never has it.
step("Test build (next build, SHOP_TEST_CLOCK=1)", () =>
  run(bin("next"), ["build"], { env: { ...process.env, SHOP_TEST_CLOCK: "1" } }),
);
// The demo guide's pictures (docs/screenshots/) compared with the screens of this build: their own
// run on one stack (playwright.screenshots.config.ts), not inside the SDK release suite, where a
// candidate SDK's new look must not fail the shop's guide. `npm run screenshots:update` retakes them.
step("Demo guide screenshots (playwright.screenshots.config.ts)", () =>
  run(
    bin("playwright"),
    [
      "test",
      "-c",
      "playwright.screenshots.config.ts",
      `--reporter=${process.env.CI ? "line" : "list"},json`,
    ],
    {
      env: {
        ...process.env,
        CHROMIUM_PATH: chromium,
        PLAYWRIGHT_JSON_OUTPUT_FILE: `${root}/${reports.screenshots}`,
      },
    },
  ),
);
step("SDK release suite: both browser suites against the emulator's own SDK build", () =>
  run(bin("tsx"), ["scripts/sdk-release/run.ts"], {
    env: { ...process.env, CHROMIUM_PATH: chromium },
  }),
);
// The storefront journeys the release suite leaves out (scripts/sdk-release/selection.ts SHOP_OWN):
// the shop's own features, the demo guide, the service's variant readings. With the release run,
// every storefront test runs once.
step("Storefront: the shop's own journeys (beside the release suite's)", () =>
  run(
    bin("tsx"),
    ["scripts/sdk-release/shop-own.ts", `--reporter=${process.env.CI ? "line" : "list"},json`],
    {
      env: {
        ...process.env,
        CHROMIUM_PATH: chromium,
        PLAYWRIGHT_JSON_OUTPUT_FILE: `${root}/${reports.shopOwn}`,
      },
    },
  ),
);
// The release suite's storefront selection in its staging mode (--no-emulator), against an
// emulator on a port of its own standing in for the staging service: green with a correct SDK,
// and the report's declarations of what needs the bundled emulator agree with what ran.
step("SDK release suite without the bundled emulator: the staging mode against a stand-in", () =>
  run(bin("tsx"), ["scripts/sdk-release/staging.ts"], {
    env: { ...process.env, CHROMIUM_PATH: chromium },
  }),
);
// `npm run demo` and the browser suite at once (README): the real demo (its own build folder,
// database and ports), a second start refused, two journeys beside it on the suite's ports, then
// the demo still answering, its database and build as they were (scripts/demo-beside-tests.ts).
step("The demo and the browser suite side by side", () =>
  run(bin("tsx"), ["scripts/demo-beside-tests.ts"], {
    env: { ...process.env, CHROMIUM_PATH: chromium },
  }),
);
// The second host (examples/minimal-shop: its own tables and login, the kit and the Drizzle
// adapter installed offline from their tarballs into a copy outside this repository, built there)
// against the packed emulator installed from its tarball: go-live scenarios 1-3 (the emulator tarball's packaged journeys) and its own journeys in Chromium,
// then the readiness report with --strict --active.
step("Second host: the minimal shop against the packed emulator", () =>
  run(process.execPath, ["scripts/minimal-shop.mjs"], {
    env: { ...process.env, CHROMIUM_PATH: chromium },
  }),
);
// The third host (examples/serverless-shop: Next.js, Drizzle on PostgreSQL, Better Auth, a card
// stand-in confirmed in the browser, no resident process), installed and run the same way, with a
// database of its own on the project's PostgreSQL: go-live scenarios 1-3, its own journeys (the
// submit trap, a second shopper at the same browser, webhooks and an outage with no timers), then
// the readiness report with --strict --active.
step("Third host: the serverless shop against the packed emulator", () =>
  run(process.execPath, ["scripts/serverless-shop.mjs"], {
    env: { ...process.env, CHROMIUM_PATH: chromium },
  }),
);
// Two instances on PostgreSQL behind Debian's nginx (installed when missing): the project
// `cluster` (playwright.cluster.config.ts, docs/decisions/scaling.md).
step("Browser tests of the storefront at scale (project cluster)", () =>
  run(
    bin("playwright"),
    [
      "test",
      "-c",
      "playwright.cluster.config.ts",
      `--reporter=${process.env.CI ? "line" : "list"},json`,
    ],
    {
      env: {
        ...process.env,
        CHROMIUM_PATH: chromium,
        PLAYWRIGHT_JSON_OUTPUT_FILE: `${root}/${reports.cluster}`,
      },
    },
  ),
);
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
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
console.log(`${passed} passed, ${failed} failed`);
