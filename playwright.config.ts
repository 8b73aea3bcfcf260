import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_LAUNCH_OPTIONS } from "./scripts/chromium-launch";

// Browser tests run against the production build (`next build` first; npm test does it) with
// their own database, migrated and seeded fresh by scripts/e2e-server.mjs.
const SHOP_PORT = 3000;
// The service emulator (emulator/README.md). The shop's .env points SERVICE_* at it; tests tagged
// @emulator also drive its control API. To run against another SDK build or service, start the
// suite with SERVICE_ASSETS_URL (and the other SERVICE_* values) changed and
// `--grep-invert @emulator`; EMULATOR_PORT=0 skips starting the bundled emulator.
const EMULATOR_PORT = Number(process.env.EMULATOR_PORT ?? 4010);
// E2E_STACKS=2 (the SDK release suite sets it): a second storefront + emulator pair on 3001/4011
// with its own database runs the files below, in a second worker. Two workers never share one
// emulator (the control API resets, faults and moves the clock of the whole service) nor one
// shop database, so the journeys stay isolated while the suite takes about half the time.
const STACKS =
  EMULATOR_PORT > 0 ? Math.min(2, Math.max(1, Number(process.env.E2E_STACKS ?? 1))) : 1;
/** The second stack's files: about half the suite's time (long real-time waits included). */
const SECOND_STACK = [
  "**/trade-in-card.e2e.ts",
  "**/service-webhooks.e2e.ts",
  "**/post-purchase.e2e.ts",
];
const stack = (i: number) => ({
  shop: `http://localhost:${SHOP_PORT + i}`,
  emulator: `http://localhost:${EMULATOR_PORT + i}`,
});
export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.e2e.ts",
  outputDir: "test-results/e2e",
  retries: 0,
  workers: STACKS,
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
  ...(STACKS > 1
    ? {
        projects: [0, 1].map((i) => ({
          name: `stack-${i + 1}`,
          ...(i === 0 ? { testIgnore: SECOND_STACK } : { testMatch: SECOND_STACK }),
          use: { baseURL: stack(i).shop },
          // read by e2e/support/fixtures.ts: the control API of this stack's emulator
          metadata: { emulatorUrl: stack(i).emulator },
        })),
      }
    : {}),
  // An array so more servers (the service emulator) can be added beside the storefront.
  webServer: Array.from({ length: STACKS }, (_, i) => [
    {
      name: i === 0 ? "storefront" : `storefront-${i + 1}`,
      command: `node scripts/e2e-server.mjs --port ${SHOP_PORT + i}`,
      url: `${stack(i).shop}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore" as const,
      stderr: "pipe" as const,
      env: {
        DATABASE_URL: i === 0 ? "file:./e2e.db" : `file:./e2e-${i + 1}.db`,
        ...(i === 0
          ? {}
          : {
              SHOP_BASE_URL: stack(i).shop,
              SERVICE_API_BASE_URL: stack(i).emulator,
              SERVICE_ASSETS_URL: `${stack(i).emulator}/assets`,
            }),
      },
    },
    ...(EMULATOR_PORT > 0
      ? [
          {
            name: i === 0 ? "emulator" : `emulator-${i + 1}`,
            command: "npm run emulator",
            url: `${stack(i).emulator}/__emulator/health`,
            reuseExistingServer: false,
            timeout: 60_000,
            stdout: "ignore" as const,
            stderr: "pipe" as const,
            env: {
              EMULATOR_PORT: String(EMULATOR_PORT + i),
              ...(i === 0 ? {} : { EMULATOR_SHOP_URL: stack(i).shop }),
            },
          },
        ]
      : []),
  ]).flat(),
});
