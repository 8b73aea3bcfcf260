// The kit's shop-ports conformance suite against the adapter on PostgreSQL (node-postgres):
// one database of the test step's own cluster for the file, emptied between checks. Runs in npm test's PostgreSQL
// step (TEST_DATABASE=postgresql, scripts/vitest-postgres.ts starts the cluster).
import { runShopPortsConformance } from "@service-integration/kit/testing";
import { describe, it } from "vitest";
import { pgConformanceHost } from "../test-support/host.js";

const admin =
  process.env.TEST_DATABASE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;
if (admin) runShopPortsConformance(pgConformanceHost(admin), "the Kysely adapter on PostgreSQL");
else
  describe("the Kysely adapter on PostgreSQL", () => {
    it.skip("runs in the PostgreSQL step (TEST_DATABASE=postgresql)", () => {});
  });
