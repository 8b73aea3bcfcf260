// The kit's shop-ports conformance suite against the adapter on SQLite (better-sqlite3): every
// check on a fresh database made from the shipped schema.
import { runShopPortsConformance } from "@service-integration/kit/testing";
import { sqliteHost } from "../test-support/host.js";

runShopPortsConformance(sqliteHost, "the Drizzle adapter on SQLite");
