// /testing's emptying statement is the kit's, word for word: the kit's is the one the shop's
// conformance run checks after every emptying (lib/service-adapter/shop-ports-conformance.test.ts),
// on its 22 tables and a sequence, on PostgreSQL.
import { EMPTY_POSTGRES_TABLES as kitStatement } from "@service-integration/kit/testing";
import { expect, it } from "vitest";
import { EMPTY_POSTGRES_TABLES } from "./testing.js";

it("empties a database by the kit's statement (EMPTY_POSTGRES_TABLES)", () => {
  expect(EMPTY_POSTGRES_TABLES).toBe(kitStatement);
});
