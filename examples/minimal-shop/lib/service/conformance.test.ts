// The kit's conformance suite on the Drizzle adapter as this shop configures it (its callbacks,
// its tables from its migrations, its session cookie): every check on a fresh in-memory database
// (freshDatabasePerCheck). scripts/minimal-shop.mjs also runs it in the host installed from the
// tarballs, with this folder's vitest.config.ts (conformanceVitestConfig).
// The adapter's own run (packages/drizzle-adapter) uses a test shop's callbacks; this one proves
// the minimal shop's.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { sqliteTransaction } from "@service-integration/drizzle-adapter/sqlite";
import { createTokenSealer } from "@service-integration/kit/server";
import {
  type ConformanceHost,
  freshDatabasePerCheck,
  runShopPortsConformance,
} from "@service-integration/kit/testing";
import { TEST_ADDRESS } from "../../test-support/address";
import { hashPassword, openDatabase } from "../db";
import { customers } from "../schema";
import { newSession, SESSION_COOKIE, seal } from "../session";
import { addToCart, SHIPPING } from "../shop";
import { identity, statuses } from "./callbacks";
import { serviceAdapter } from "./wiring";

process.env.MINI_SESSION_SECRET ??= "conformance-session-secret-0123456789";
const drizzleFolder = path.join(import.meta.dirname, "../../drizzle");
const PHONE = { price: 42000, tax: 7980 };

function miniHost(db: ReturnType<typeof openDatabase>): ConformanceHost {
  const adapter = serviceAdapter(db, createTokenSealer("k".repeat(32)));
  const rows = (table: string) => db.$client.prepare(`SELECT * FROM ${table}`).all();
  return {
    servicePay: adapter.servicePay,
    statuses,
    orders: adapter.orders,
    tradeIns: adapter.tradeIns,
    tokens: adapter.tokens,
    identity,
    shopper: adapter.shopper,
    recordTradeInSeen: (sessionId, tradeInId) => adapter.noteTradeInSeen(sessionId, tradeInId),
    async issueSession(customerId) {
      // The sealed mini_session cookie, as proxy.ts issues it and sign-in keeps it.
      const session = { ...newSession(), ...(customerId ? { customerId } : {}) };
      return { cookie: `${SESSION_COOKIE}=${seal(session)}`, identity: session };
    },
    async seedCustomer() {
      const id = randomUUID();
      const customer = {
        id,
        email: `ada-${id}@example.com`,
        givenName: "Ada",
        familyName: "Lovelace",
      };
      await sqliteTransaction(db, (q) =>
        q.insert(customers).values({ ...customer, passwordHash: hashPassword("pw") }),
      );
      // This shop keeps no customer address.
      return { ...customer, address: null };
    },
    async seedOpenCart() {
      const sessionId = randomUUID();
      await addToCart(db, sessionId, "phone");
      const details = {
        email: "ada@example.com",
        billing: TEST_ADDRESS,
        shipping: TEST_ADDRESS,
        shippingMethod: SHIPPING.id,
      };
      return {
        sessionId,
        details,
        owes: PHONE.price + PHONE.tax + SHIPPING.price,
        currency: "EUR",
      };
    },
    persistedTokenText: async () =>
      JSON.stringify([rows("service_tokens"), rows("service_leases")]),
  };
}

runShopPortsConformance(
  freshDatabasePerCheck({
    open: () => openDatabase(":memory:", drizzleFolder),
    host: miniHost,
    dispose: (db) => {
      db.$client.close();
    },
  }),
  "the minimal shop on the Drizzle adapter (SQLite)",
);
