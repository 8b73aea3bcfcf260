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
  // Both browser suites (the SDK on the emulator's test page and the storefront) run once, inside
  // the SDK release suite against the emulator's own SDK build (scripts/sdk-release/run.ts).
  release: "sdk-release-report/results.json",
};
step("Unit tests (vitest run)", () =>
  run(bin("vitest"), [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${reports.unit}`,
  ]),
);
step("Production build (next build)", () => run(bin("next"), ["build"]));
step("SDK release suite: both browser suites against the emulator's own SDK build", () =>
  run(bin("tsx"), ["scripts/sdk-release/run.ts"], {
    env: { ...process.env, CHROMIUM_PATH: chromium },
  }),
);
const json = (file) => JSON.parse(readFileSync(`${root}/${file}`, "utf8"));
const unit = json(reports.unit);
const browser = json(reports.release).builds.flatMap((b) => b.tests);
const passed = unit.numPassedTests + browser.filter((t) => t.outcome === "passed").length;
const failed = unit.numFailedTests + browser.filter((t) => t.outcome === "failed").length;
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
console.log(`${passed} passed, ${failed} failed`);
