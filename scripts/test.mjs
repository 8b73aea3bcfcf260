// `npm test`: every check in one go, with a header per step; stops at the first failure.
// (npm test has already run `npm install`.)
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
step("Unit tests (vitest run)", () => run(bin("vitest"), ["run"]));
step("Production build (next build)", () => run(bin("next"), ["build"]));
const browserEnv = { env: { ...process.env, CHROMIUM_PATH: chromium } };
step("Browser tests of the service SDK on the emulator's test page", () =>
  run(bin("playwright"), ["test", "-c", "emulator/playwright.config.ts"], browserEnv),
);
step("Browser tests of the storefront (playwright test)", () =>
  run(bin("playwright"), ["test"], browserEnv),
);
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
