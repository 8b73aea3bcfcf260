import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_LAUNCH_OPTIONS } from "../scripts/chromium-launch";

// Playwright tests of the browser SDK on the emulator's bare test merchant page (not the
// storefront). Port 4110 so it never collides with the product's 4010 or the shop's 3000.
const PORT = Number(process.env.EMULATOR_E2E_PORT ?? 4110);

export default defineConfig({
  testDir: "./e2e",
  outputDir: "../test-results/sdk",
  testMatch: "**/*.e2e.ts",
  retries: 0,
  fullyParallel: true,
  // Two workers on CI, one where only one core is ours (a machine of one, `measure --one-core`).
  workers: process.env.CI ? Math.min(2, availableParallelism()) : undefined,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? "line" : "list",
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    // The page is served from 127.0.0.1 and the SDK from localhost: two origins, as in production.
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: false },
    screenshot: "only-on-failure",
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    command: "npm run emulator",
    cwd: path.resolve(import.meta.dirname, ".."),
    env: { EMULATOR_PORT: String(PORT) },
    url: `http://127.0.0.1:${PORT}/__emulator/health`,
    // Never another emulator's SDK: a candidate run (EMULATOR_SDK) always starts its own server.
    reuseExistingServer: !process.env.CI && !process.env.EMULATOR_SDK,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
