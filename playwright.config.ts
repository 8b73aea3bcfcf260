import { defineConfig, devices } from "@playwright/test";
import type { ServiceVariantOptions } from "./e2e/support/fixtures";
import { SERVICE_VARIANTS, VARIANTS_TAG } from "./e2e/support/service-variants";
import { CHROMIUM_LAUNCH_OPTIONS } from "./scripts/chromium-launch";

// Browser tests run against the production build (`next build` first; npm test does it) with
// their own database, migrated and seeded fresh by scripts/e2e-server.mjs.
const SHOP_PORT = 3000;
// The service emulator (emulator/README.md). The shop's .env points SERVICE_* at it; tests tagged
// @emulator also drive its control API. To run against another SDK build or service, start the
// suite with SERVICE_ASSETS_URL (and the other SERVICE_* values) changed and
// `--grep-invert @emulator`; EMULATOR_PORT=0 skips starting the bundled emulator.
const EMULATOR_PORT = Number(process.env.EMULATOR_PORT ?? 4010);
const READINESS = "**/readiness.e2e.ts";
// Several instances behind a balancer: their own project (playwright.cluster.config.ts).
const CLUSTER = "cluster/**";

export default defineConfig<ServiceVariantOptions>({
  testDir: "e2e",
  testMatch: "**/*.e2e.ts",
  testIgnore: CLUSTER,
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
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
  },
  // The whole suite against the emulator's defaults, then the session, trade-in and Service Pay
  // journeys (tagged @variants) once per other reading of the contract the emulator offers.
  // The go-live readiness report is judged last, on the traffic of every project before it.
  projects: [
    { name: "storefront", testIgnore: [READINESS, CLUSTER] },
    ...SERVICE_VARIANTS.map((variant) => ({
      name: `service variant: ${variant.name}`,
      grep: new RegExp(VARIANTS_TAG),
      testIgnore: [READINESS, CLUSTER],
      use: { serviceMerchant: variant.merchant },
    })),
    {
      name: "readiness",
      testMatch: READINESS,
      dependencies: ["storefront", ...SERVICE_VARIANTS.map((v) => `service variant: ${v.name}`)],
    },
  ],
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
    ...(EMULATOR_PORT > 0
      ? [
          {
            name: "emulator",
            command: "npm run emulator",
            url: `http://localhost:${EMULATOR_PORT}/__emulator/health`,
            reuseExistingServer: false,
            timeout: 60_000,
            stdout: "ignore" as const,
            stderr: "pipe" as const,
            env: { EMULATOR_PORT: String(EMULATOR_PORT) },
          },
        ]
      : []),
  ],
});
