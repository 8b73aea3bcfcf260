import { defineConfig, devices } from "@playwright/test";
import type { ServiceVariantOptions } from "./e2e/support/fixtures";
import { stackOf, stacksWebServer } from "./e2e/support/stack";
import { CHROMIUM_LAUNCH_OPTIONS } from "./scripts/chromium-launch";

// The sales demo guide's pictures (docs/demo.md, docs/screenshots/*.png) as expectations: the
// guide's journey is walked on the current shop and each screen is compared with the committed
// image (`npm run screenshots`, a step of npm test); `npm run screenshots:update` retakes them.
// Its own run, not the storefront suite's: that suite also runs inside the SDK release suite, where
// a candidate SDK with a new look must not fail the shop's guide pictures. One stack, one worker.
process.env.E2E_WORKERS = "1";
// As in playwright.config.ts: the stack's own emulator, not one left in the shell.
delete process.env.EMULATOR_URL;
const STACK = stackOf(0);

export default defineConfig<ServiceVariantOptions>({
  testDir: "e2e",
  testMatch: "demo-screenshots.e2e.ts",
  outputDir: "test-results/screenshots",
  // The images docs/demo.md links are the expectations themselves: the guide shows exactly the
  // compared file.
  snapshotPathTemplate: "{testDir}/../docs/screenshots/{arg}{ext}",
  globalSetup: "./e2e/support/warm-up.ts",
  retries: 0,
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? "line" : "list",
  timeout: 60_000,
  expect: {
    timeout: 10_000,
    toHaveScreenshot: {
      // No pixel may differ beyond anti-aliasing noise (Playwright's per-pixel colour threshold):
      // a changed digit of an amount or a changed word of a label changes dozens of pixels.
      maxDiffPixels: 0,
      animations: "disabled",
      caret: "hide",
      scale: "css",
    },
  },
  use: {
    baseURL: STACK.shopUrl,
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: false },
    screenshot: "only-on-failure",
    ...devices["Desktop Chrome"],
    // The presenter's window of docs/demo.md (the inspector docks at 1440 px and wider), at one
    // device pixel per CSS pixel, with the dates of the pages in one fixed zone and language.
    viewport: { width: 1440, height: 900 },
    deviceScaleFactor: 1,
    locale: "en-US",
    timezoneId: "UTC",
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
  },
  projects: [{ name: "guide-screenshots" }],
  webServer: stacksWebServer([STACK]),
});
