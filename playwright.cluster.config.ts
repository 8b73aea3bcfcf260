import { defineConfig, devices } from "@playwright/test";
import type { ServiceVariantOptions } from "./e2e/support/fixtures";
import { CHROMIUM_LAUNCH_OPTIONS } from "./scripts/chromium-launch";

// The Playwright project `cluster`: the shop as it runs at scale (docs/decisions/scaling.md). Two
// `next start` instances of the production build (`next build` first) on PostgreSQL, Debian's
// nginx round robin in front, the service emulator sending its webhooks to the balancer. All of
// it is started by scripts/cluster.mjs on ports of its own, so it never meets the demo's 3000/4010 or
// the single-instance suite's 3800/4800; its control port lets a test kill and restart an instance.
export const CLUSTER = {
  balancer: 3300,
  emulator: 4300,
  control: 3399,
  database: "shop_cluster_e2e",
};
// The control-API client (e2e/support/emulator.ts) reads it when imported.
process.env.EMULATOR_URL = `http://localhost:${CLUSTER.emulator}`;

export default defineConfig<ServiceVariantOptions>({
  testDir: "e2e/cluster",
  testMatch: "**/*.e2e.ts",
  outputDir: "test-results/cluster",
  retries: 0,
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? "line" : "list",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  projects: [
    {
      name: "cluster",
      use: {
        baseURL: `http://localhost:${CLUSTER.balancer}`,
        // e2e/support/fixtures.ts: its customers live in PostgreSQL; log in through the balancer
        signInByForm: true,
        trace: { mode: "retain-on-failure", screenshots: false, snapshots: false },
        screenshot: "only-on-failure",
        ...devices["Desktop Chrome"],
        launchOptions: CHROMIUM_LAUNCH_OPTIONS,
      },
    },
  ],
  webServer: [
    {
      name: "cluster",
      command: [
        "node scripts/cluster.mjs --no-build --fresh --instances 2",
        `--port ${CLUSTER.balancer} --emulator-port ${CLUSTER.emulator}`,
        `--control-port ${CLUSTER.control} --database ${CLUSTER.database}`,
      ].join(" "),
      url: `http://localhost:${CLUSTER.control}/instances`,
      reuseExistingServer: false,
      timeout: 180_000,
      // SIGTERM, not the default SIGKILL: cluster.mjs then stops the instances, nginx and the
      // PostgreSQL it started (a daemon outside its process group, which a kill would leave
      // running on its port for the next run to trip over).
      gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
      stdout: "ignore",
      stderr: "pipe",
    },
  ],
});
