// The minimal shop's adapter against the kit's conformance suite (docs/integrating.md,
// "Prove your adapter: the conformance suite"): every check on a fresh in-memory database.
import { randomUUID } from "node:crypto";
import { createTokenSealer } from "@service-integration/kit/server";
import { type ConformanceHost, runShopPortsConformance } from "@service-integration/kit/testing";
import { TEST_ADDRESS } from "../../test-support/address";

process.env.MINI_DATABASE_FILE = ":memory:";
process.env.MINI_SESSION_SECRET ??= "conformance-session-secret-0123456789";
const { closeDb, db, hashPassword, transaction } = await import("../db");
const { newSession, SESSION_COOKIE, seal } = await import("../session");
const { addToCart, products, SHIPPING } = await import("../shop");
const { miniSessionIdentity } = await import("./identity");
const { miniServicePayStore } = await import("./service-pay-store");
const { miniShopperSource } = await import("./shopper-source");
const { miniOrderStatuses } = await import("./statuses");
const { miniTokenStore } = await import("./token-store");
const { miniTradeInStore } = await import("./trade-in-store");

const address = TEST_ADDRESS;

async function miniHost(): Promise<ConformanceHost> {
  await closeDb(); // the next db() opens a new, empty in-memory database
  const phone = products().find((p) => p.id === "phone");
  if (!phone) throw new Error("the seed has no phone");
  return {
    servicePay: miniServicePayStore,
    statuses: miniOrderStatuses,
    // No back office: the minimal shop sends no order updates (skipped below).
    tradeIns: miniTradeInStore,
    tokens: miniTokenStore(createTokenSealer("k".repeat(32))),
    identity: miniSessionIdentity,
    shopper: miniShopperSource,
    async issueSession(customerId) {
      // The sealed mini_session cookie, as proxy.ts issues it and sign-in keeps it.
      const identity = { ...newSession(), ...(customerId ? { customerId } : {}) };
      return { cookie: `${SESSION_COOKIE}=${seal(identity)}`, identity };
    },
    async seedCustomer() {
      const customer = {
        id: randomUUID(),
        email: `ada-${randomUUID()}@example.com`,
        givenName: "Ada",
        familyName: "Lovelace",
      };
      db()
        .prepare("INSERT INTO customers VALUES (?, ?, ?, ?, ?)")
        .run(
          customer.id,
          customer.email,
          customer.givenName,
          customer.familyName,
          hashPassword("pw"),
        );
      // This shop keeps no customer address.
      return { ...customer, address: null };
    },
    async seedOpenCart() {
      const sessionId = randomUUID();
      await transaction(() => addToCart(sessionId, "phone"));
      return {
        sessionId,
        details: {
          email: "ada@example.com",
          billing: address,
          shipping: address,
          shippingMethod: SHIPPING.id,
        },
        owes: phone.price + phone.tax + SHIPPING.price,
        currency: "EUR",
      };
    },
    async persistedTokenText() {
      return JSON.stringify([
        db().prepare("SELECT * FROM tokens").all(),
        db().prepare("SELECT * FROM leases").all(),
      ]);
    },
    close: closeDb,
  };
}

// No back office (no order updates), and no trade-in-seen route (tradeInSeen is always null).
runShopPortsConformance(miniHost, "the minimal shop's better-sqlite3 adapter", {
  skip: ["order-update-against-current", "trade-in-seen"],
});
