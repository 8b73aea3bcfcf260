import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

const ALL_TESTS = [
  "{lib,app,emulator,scripts,prisma,examples,packages,test-support}/**/*.test.{ts,tsx}",
];
// The minimal shop's conformance test runs only in the shop scripts/minimal-shop.mjs builds
// from docs/integrating.md's quick start (the files it imports are that page's blocks).
const NOT_TESTS = ["**/node_modules/**", "**/e2e/**", "**/.next/**", "examples/minimal-shop/**"];

// The unit test files that run in a fresh module graph each (project "isolated" below); every
// other file shares its worker's modules. A file belongs here when what it does would reach the
// files after it in the same worker (test-support/isolated-tests.test.ts keeps the list exact):
export const ISOLATED_TESTS = [
  // The shop's configuration is read once per module graph (lib/config.ts getConfig): these set
  // their own caps, order-creation mode or job secrets through the environment.
  "app/api/service/anonymous-cap-trim.test.ts",
  "app/api/service/anonymous-cost.test.ts",
  "app/api/service/anonymous-storage.test.ts",
  "app/api/service/checkout/route.test.ts",
  "app/api/service/jobs/notification-sweep/route.test.ts",
  "app/api/service/jobs/trade-in-retry/route.test.ts",
  "app/api/service/webhooks/order/route.test.ts",
  "lib/service-adapter/settings-at-start.test.ts",
  "lib/service-adapter/shop-ports-conformance.test.ts",
  // They replace a module (vi.mock) or import the modules again (vi.resetModules).
  "app/api/service/webhooks/order/no-timers.test.ts",
  "app/api/test/clock/route.test.ts",
  "lib/service-adapter/request-session.test.ts",
  "packages/kit/src/service-routes.test.ts",
  "scripts/sdk-release/staging-service.test.ts",
  // A page's globals (vi.stubGlobal window and document) and the SDK loaded once per module graph
  // (sdk-events.ts: once per page load).
  "packages/kit/src/load-service-sdk.test.ts",
];

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // The packages are not aliased: the shop's tests import their built dist/ through the
      // workspace links, as an integrator imports them.
      // Tests run outside React's server environment; the marker's server build is empty (the
      // kit's dist/ and src/ import it too).
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    environment: "node",
    // Most test files share their worker's modules (isolate: false): importing Next, Prisma's
    // client and the packages again for every file was half the step's CPU. A file that sets
    // its own configuration, replaces a module or changes the process's environment runs in a
    // fresh module graph of its own (ISOLATED_TESTS above).
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include: ALL_TESTS,
          exclude: [...NOT_TESTS, ...ISOLATED_TESTS],
          isolate: false,
        },
      },
      { extends: true, test: { name: "isolated", include: ISOLATED_TESTS, exclude: NOT_TESTS } },
    ],
    // Twice the cores: most test files wait (servers starting, sockets, SQLite's fsync, a
    // browser) more than they compute. Measured on 2 cores: 97 s with the default, 52 s with 4.
    // availableParallelism follows the CPU affinity, so a run pinned to one core gets 2.
    maxWorkers: 2 * availableParallelism(),
    // TEST_DATABASE=postgresql runs the database tests on PostgreSQL instead of SQLite.
    // A temp folder of the run's own, removed after it (scripts/vitest-temp.ts).
    globalSetup: [
      "scripts/vitest-temp.ts",
      ...(process.env.TEST_DATABASE === "postgresql" ? ["scripts/vitest-postgres.ts"] : []),
    ],
  },
});
