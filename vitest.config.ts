import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["{lib,app,emulator,scripts,prisma}/**/*.test.{ts,tsx}"],
    exclude: ["**/node_modules/**", "**/e2e/**", "**/.next/**"],
    environment: "node",
    // TEST_DATABASE=postgresql runs the database tests on PostgreSQL instead of SQLite.
    globalSetup: process.env.TEST_DATABASE === "postgresql" ? ["scripts/vitest-postgres.ts"] : [],
  },
});
