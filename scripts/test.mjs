// `npm test`: every check in one go, with a header per step; stops at the first failure.
// (npm test has already run `npm install`.)
import { readFileSync } from "node:fs";
import { ensureBrowser } from "./ensure-browser.mjs";
import { loadEnv, root } from "./lib/env.mjs";
import { run } from "./lib/run.mjs";

loadEnv();
const started = Date.now();
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
  console.log(`Chromium: ${chromium}`);
});
step("Prisma client", () => run(process.execPath, ["scripts/prisma.mjs", "generate"]));
step("Typecheck (tsc --noEmit)", () => run(bin("tsc"), ["--noEmit"]));
step("Lint and format (biome check)", () => run(bin("biome"), ["check", "."]));
// Each runner also writes a JSON report, so the run can close on one plain count line.
const reports = {
  unit: "test-results/unit.json",
  unitPostgres: "test-results/unit-postgres.json",
  sdk: "test-results/sdk.json",
  shop: "test-results/e2e.json",
  cluster: "test-results/cluster.json",
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
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${reports.unitPostgres}`,
    ],
    { env: { ...process.env, TEST_DATABASE: "postgresql" } },
  ),
);
step("Production build (next build)", () => run(bin("next"), ["build"]));
const browserRun = (config, report) =>
  run(
    bin("playwright"),
    ["test", "-c", config, `--reporter=${process.env.CI ? "line" : "list"},json`],
    {
      env: {
        ...process.env,
        CHROMIUM_PATH: chromium,
        PLAYWRIGHT_JSON_OUTPUT_FILE: `${root}/${report}`,
      },
    },
  );
step("Browser tests of the service SDK on the emulator's test page", () =>
  browserRun("emulator/playwright.config.ts", reports.sdk),
);
step("Browser tests of the storefront (playwright test)", () =>
  browserRun("playwright.config.ts", reports.shop),
);
// Two instances on PostgreSQL behind Debian's nginx (installed when missing): the project
// `cluster` (playwright.cluster.config.ts, docs/decisions/scaling.md).
step("Browser tests of the storefront at scale (project cluster)", () =>
  browserRun("playwright.cluster.config.ts", reports.cluster),
);
const json = (file) => JSON.parse(readFileSync(`${root}/${file}`, "utf8"));
const units = [json(reports.unit), json(reports.unitPostgres)];
const browser = [json(reports.sdk).stats, json(reports.shop).stats, json(reports.cluster).stats];
const passed =
  units.reduce((n, u) => n + u.numPassedTests, 0) + browser.reduce((n, s) => n + s.expected, 0);
const failed =
  units.reduce((n, u) => n + u.numFailedTests, 0) +
  browser.reduce((n, s) => n + s.unexpected + s.flaky, 0);
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
console.log(`${passed} passed, ${failed} failed`);
