import { defineConfig, devices } from "@playwright/test";
import type { ServiceVariantOptions } from "./e2e/support/fixtures";
import { SERVICE_VARIANTS, VARIANTS_TAG } from "./e2e/support/service-variants";
import { CHROMIUM_LAUNCH_OPTIONS } from "./scripts/chromium-launch";

// Browser tests run against the production build (`next build` first; npm test does it) with
// their own database, migrated and seeded fresh by scripts/e2e-server.mjs.
// E2E_STACK=1 / E2E_STACK=2 (the SDK release suite runs both side by side, one Playwright process
// each): stack 2 is a second storefront + emulator pair on 3001 / 4011 with its own database that
// runs the files of SECOND_STACK; stack 1 runs the rest on 3000 / 4010. The control API resets,
// faults and moves the clock of a whole emulator, so two journeys never share one. Unset: the
// whole suite on 3000 / 4010.
const STACK = process.env.E2E_STACK === "2" ? 2 : process.env.E2E_STACK === "1" ? 1 : 0;
/** Stack 2's files: about half the suite's time (long real-time waits included). */
const SECOND_STACK = [
  "**/trade-in-card.e2e.ts",
  "**/service-webhooks.e2e.ts",
  "**/post-purchase.e2e.ts",
];
const OFFSET = STACK === 2 ? 1 : 0;
const SHOP_PORT = 3000 + OFFSET;
// The service emulator (emulator/README.md). The shop's .env points SERVICE_* at it; tests tagged
// @emulator also drive its control API. To run against another SDK build or service, start the
// suite with SERVICE_ASSETS_URL (and the other SERVICE_* values) changed and
// `--grep-invert @emulator`; EMULATOR_PORT=0 skips starting the bundled emulator.
const EMULATOR_BASE_PORT = Number(process.env.EMULATOR_PORT ?? 4010);
const EMULATOR_PORT = EMULATOR_BASE_PORT > 0 ? EMULATOR_BASE_PORT + OFFSET : 0;
const SHOP_URL = `http://localhost:${SHOP_PORT}`;
const EMULATOR_URL = `http://localhost:${EMULATOR_PORT}`;
// The tests' control API client (e2e/support/emulator.ts) reads EMULATOR_URL; workers inherit it.
if (STACK === 2) process.env.EMULATOR_URL = EMULATOR_URL;
const READINESS = "**/readiness.e2e.ts";
// Several instances behind a balancer: their own project (playwright.cluster.config.ts).
const CLUSTER = "cluster/**";
const stackFiles =
  STACK === 2
    ? { testMatch: SECOND_STACK, testIgnore: [READINESS, CLUSTER] }
    : { testIgnore: STACK === 1 ? [READINESS, CLUSTER, ...SECOND_STACK] : [READINESS, CLUSTER] };

export default defineConfig<ServiceVariantOptions>({
  testDir: "e2e",
  testMatch: "**/*.e2e.ts",
  testIgnore: CLUSTER,
  // one folder per stack: each Playwright process empties its own at start
  outputDir: STACK === 2 ? "test-results/e2e-2" : "test-results/e2e",
  retries: 0,
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? "line" : "list",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: SHOP_URL,
    trace: "retain-on-failure",
    ...devices["Desktop Chrome"],
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
  },
  // The whole suite against the emulator's defaults, then the session, trade-in and Service Pay
  // journeys (tagged @variants) once per other reading of the contract the emulator offers.
  // The go-live readiness report is judged last, on the traffic of every project before it.
  // With E2E_STACK=2 only SECOND_STACK's files run, with E2E_STACK=1 all the others; the
  // readiness report judges stack 1's emulator only (it runs there, not on stack 2).
  projects: [
    { name: "storefront", ...stackFiles },
    ...SERVICE_VARIANTS.map((variant) => ({
      name: `service variant: ${variant.name}`,
      grep: new RegExp(VARIANTS_TAG),
      ...stackFiles,
      use: { serviceMerchant: variant.merchant },
    })),
    ...(STACK === 2
      ? []
      : [
          {
            name: "readiness",
            testMatch: READINESS,
            dependencies: [
              "storefront",
              ...SERVICE_VARIANTS.map((v) => `service variant: ${v.name}`),
            ],
          },
        ]),
  ],
  // An array so more servers (the service emulator) can be added beside the storefront.
  webServer: [
    {
      name: "storefront",
      command: `node scripts/e2e-server.mjs --port ${SHOP_PORT}`,
      url: `${SHOP_URL}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        DATABASE_URL: STACK === 2 ? "file:./e2e-2.db" : "file:./e2e.db",
        ...(STACK === 2
          ? {
              SHOP_BASE_URL: SHOP_URL,
              SERVICE_API_BASE_URL: EMULATOR_URL,
              SERVICE_ASSETS_URL: `${EMULATOR_URL}/assets`,
            }
          : {}),
      },
    },
    ...(EMULATOR_PORT > 0
      ? [
          {
            name: "emulator",
            command: "npm run emulator",
            url: `${EMULATOR_URL}/__emulator/health`,
            reuseExistingServer: false,
            timeout: 60_000,
            stdout: "ignore" as const,
            stderr: "pipe" as const,
            env: {
              EMULATOR_PORT: String(EMULATOR_PORT),
              ...(STACK === 2 ? { EMULATOR_SHOP_URL: SHOP_URL } : {}),
            },
          },
        ]
      : []),
  ],
});
