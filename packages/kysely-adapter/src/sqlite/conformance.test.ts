// The kit's shop-ports conformance suite against the adapter on SQLite (better-sqlite3): every
// check on a fresh in-memory database made from the shipped SQL.
import { runShopPortsConformance } from "@service-integration/kit/testing";
import { conformanceHost, sqliteTestDatabase } from "../test-support/host.js";

runShopPortsConformance(conformanceHost(sqliteTestDatabase), "the Kysely adapter on SQLite");
