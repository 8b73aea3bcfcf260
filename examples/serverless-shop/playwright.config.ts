import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_LAUNCH_OPTIONS } from "../../scripts/chromium-launch";

// The serverless shop's journeys in real Chromium against `next start` of its build and the packed
// emulator, both started by scripts/serverless-shop.mjs (which sets SHOP_URL, EMULATOR_URL and
// installs the emulator's tarball in e2e/node_modules, where the journeys import
// `service-emulator/go-live` from).
export default defineConfig({
  testDir: "e2e",
  // Not the shop's tsconfig.json: its "service-emulator/go-live" path (for tsc before the tarball
  // is installed) would point the journeys at the emulator's source instead of the tarball.
  tsconfig: "./e2e/tsconfig.json",
  testMatch: "**/*.e2e.ts",
  outputDir: "../../test-results/serverless-shop",
  retries: 0,
  workers: 1,
  // The JSON report lets `npm test` count these journeys in its closing line.
  reporter: [
    [process.env.CI ? "line" : "list"],
    ["json", { outputFile: "../../test-results/serverless-shop.json" }],
  ],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: process.env.SHOP_URL ?? "http://localhost:5610",
    trace: { mode: "retain-on-failure", screenshots: false },
    ...devices["Desktop Chrome"],
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
  },
});
