import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

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
    include: ["{lib,app,emulator,scripts,prisma,examples,packages}/**/*.test.{ts,tsx}"],
    // The minimal shop's conformance test runs only in the shop scripts/minimal-shop.mjs builds
    // from docs/integrating.md's quick start (the files it imports are that page's blocks).
    exclude: ["**/node_modules/**", "**/e2e/**", "**/.next/**", "examples/minimal-shop/**"],
    environment: "node",
    // Twice the cores: most test files wait (servers starting, sockets, SQLite's fsync, a
    // browser) more than they compute. Measured on 2 cores: 97 s with the default, 52 s with 4.
    // availableParallelism follows the CPU affinity, so a run pinned to one core gets 2.
    maxWorkers: 2 * availableParallelism(),
    // TEST_DATABASE=postgresql runs the database tests on PostgreSQL instead of SQLite.
    globalSetup: process.env.TEST_DATABASE === "postgresql" ? ["scripts/vitest-postgres.ts"] : [],
  },
});
