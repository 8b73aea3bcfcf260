// The kit's shop-ports conformance suite against the adapter on PostgreSQL (@prisma/adapter-pg):
// every check on a fresh database of the test step's own cluster. Runs in npm test's
// PostgreSQL step (TEST_DATABASE=postgresql, scripts/vitest-postgres.ts starts the cluster).
import { runShopPortsConformance } from "@service-integration/kit/testing";
import { describe, it } from "vitest";
import { testShopDdl } from "../test-support/ddl.js";
import { pgHost } from "../test-support/host.js";

const admin =
  process.env.TEST_DATABASE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;
if (admin) {
  // Made once, when the file is collected (the Prisma CLI takes seconds).
  const shopDdl = testShopDdl("postgresql", admin);
  runShopPortsConformance(pgHost(admin, shopDdl), "the Prisma adapter on PostgreSQL");
} else
  describe("the Prisma adapter on PostgreSQL", () => {
    it.skip("runs in the PostgreSQL step (TEST_DATABASE=postgresql)", () => {});
  });
