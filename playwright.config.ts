import { defineConfig, devices } from "@playwright/test";

// Browser tests run against the production build (`next build` first; npm test does it) with
// their own database, migrated and seeded fresh by scripts/e2e-server.mjs.
const SHOP_PORT = 3000;

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.e2e.ts",
  outputDir: "test-results/e2e",
  retries: 0,
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? "line" : "list",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://localhost:${SHOP_PORT}`,
    trace: "retain-on-failure",
    ...devices["Desktop Chrome"],
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  // An array so more servers (the service emulator) can be added beside the storefront.
  webServer: [
    {
      name: "storefront",
      command: `node scripts/e2e-server.mjs --port ${SHOP_PORT}`,
      url: `http://localhost:${SHOP_PORT}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
      env: { DATABASE_URL: "file:./e2e.db" },
    },
  ],
});
