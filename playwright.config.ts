import { defineConfig, devices } from "@playwright/test";
import type { ServiceVariantOptions } from "./e2e/support/fixtures";
import { STACK, stackCount, stackOf, stacksWebServer } from "./e2e/support/stack";
import { CHROMIUM_LAUNCH_OPTIONS } from "./scripts/chromium-launch";
import { storefrontSelection } from "./scripts/sdk-release/selection";

// Browser tests run against the production build (`next build` first; npm test does it) with
// their own databases, migrated and seeded fresh by scripts/e2e-server.mjs.
// Each worker has a storefront + emulator pair of its own (./e2e/support/stack.ts): E2E_WORKERS
// of them (default 2), the shop on 3800 + k and the emulator on 4800 + k: never the demo's ports,
// database or build folder, so the suite runs while `npm run demo` is up.
const STACKS = Array.from({ length: stackCount() }, (_, k) => stackOf(k));
// An EMULATOR_URL left in the shell would put every worker on one emulator (e2e/support/emulator.ts
// honours it for the cluster project, which has one of its own).
delete process.env.EMULATOR_URL;
// The service emulator (emulator/README.md). The shop's SERVICE_* settings point at its stack's
// emulator; tests tagged @emulator also drive its control API. To run against a staging service,
// set the SERVICE_* values and EMULATOR_PORT=0 (no bundled emulator, one worker): the journeys
// that need the control API are skipped with the reason (e2e/support/service-fixture.ts).
const READINESS = "**/readiness.e2e.ts";
// Several instances behind a balancer: their own project (playwright.cluster.config.ts).
const CLUSTER = "cluster/**";
// The demo guide's pictures: their own run (playwright.screenshots.config.ts), never inside the
// SDK release suite, which runs this config.
const GUIDE_SCREENSHOTS = "**/demo-screenshots.e2e.ts";

export default defineConfig<ServiceVariantOptions>({
  testDir: "e2e",
  testMatch: "**/*.e2e.ts",
  testIgnore: [CLUSTER, GUIDE_SCREENSHOTS],
  outputDir: "test-results/e2e",
  globalSetup: "./e2e/support/warm-up.ts",
  retries: 0,
  workers: STACKS.length,
  // Journeys are independent (each resets its own stack's emulator), so they spread over the
  // workers one by one, not file by file.
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? "line" : "list",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    // The worker's own shop (this file is evaluated in every worker).
    baseURL: STACK.shopUrl,
    // A failed test keeps its trace (every action with its call log, the console), a screenshot
    // and the page's accessibility snapshot of the moment it failed. Without DOM snapshots, the
    // network log (Playwright records it with the snapshots) or the screencast: recording them for
    // every test, to keep them for the few that fail, cost about a sixth of the suite's CPU
    // (e2e/README.md). `npx playwright test --trace retain-on-failure` records them when debugging.
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: false },
    screenshot: "only-on-failure",
    ...devices["Desktop Chrome"],
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
  },
  // The whole suite against the emulator's defaults, the journeys that differ by the service's
  // reading of the contract once more per reading (e2e/support/service-variants.ts). The go-live
  // readiness report is judged last, on the traffic of everything before it, on every stack's
  // emulator.
  projects: [
    // E2E_SELECTION: the SDK release run's journeys or the shop's own, unset every test
    // (scripts/sdk-release/selection.ts).
    {
      name: "storefront",
      testIgnore: [READINESS, CLUSTER, GUIDE_SCREENSHOTS],
      ...storefrontSelection(process.env),
    },
    { name: "readiness", testMatch: READINESS, dependencies: ["storefront"] },
  ],
  webServer: stacksWebServer(STACKS),
});
