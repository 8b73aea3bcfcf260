// The adapter's own checks (src/test-support/adapter-checks.ts) on PostgreSQL, in npm test's
// PostgreSQL step (TEST_DATABASE=postgresql).
import { describe, it } from "vitest";
import { runAdapterChecks } from "../test-support/adapter-checks.js";
import { testShopDdl } from "../test-support/ddl.js";
import { pgTestDatabases } from "../test-support/host.js";

const admin =
  process.env.TEST_DATABASE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;
if (admin) {
  const shopDdl = testShopDdl("postgresql", admin);
  runAdapterChecks("postgresql", pgTestDatabases(admin, shopDdl));
} else
  describe("the Prisma adapter's own checks on PostgreSQL", () => {
    it.skip("run in the PostgreSQL step (TEST_DATABASE=postgresql)", () => {});
  });
