// The kit's shop-ports conformance suite against the adapter on SQLite (better-sqlite3): every
// check on a fresh database made from the shipped migration and the test shop's tables.
import { runShopPortsConformance } from "@service-integration/kit/testing";
import { testShopDdl } from "../test-support/ddl.js";
import { sqliteHost } from "../test-support/host.js";

// Made once, when the file is collected (the Prisma CLI takes seconds).
const shopDdl = testShopDdl("sqlite");
runShopPortsConformance(sqliteHost(shopDdl), "the Prisma adapter on SQLite");
