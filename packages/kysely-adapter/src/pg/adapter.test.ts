// The adapter's own checks on PostgreSQL: in npm test's PostgreSQL step (TEST_DATABASE=postgresql).
import { describe, it } from "vitest";
import { adapterChecks } from "../test-support/adapter-checks.js";
import { pgTestDatabases } from "../test-support/host.js";

const admin =
  process.env.TEST_DATABASE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;
if (admin) adapterChecks("PostgreSQL", pgTestDatabases(admin));
else
  describe("the Kysely adapter's own checks (PostgreSQL)", () => {
    it.skip("runs in the PostgreSQL step (TEST_DATABASE=postgresql)", () => {});
  });
