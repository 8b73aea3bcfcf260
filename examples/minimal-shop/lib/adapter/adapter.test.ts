// The unique keys and compare-and-sets the port comments require (packages/kit/src/shop-ports.ts),
// decided by the minimal shop's SQLite constraints, on a fresh in-memory database.

import type { OrderNotification } from "@service-integration/kit";
import { isConcurrentWrite } from "@service-integration/kit";
import { createTokenSealer } from "@service-integration/kit/server";
import { beforeAll, describe, expect, it } from "vitest";
import { TEST_ADDRESS } from "../../test-support/address";

process.env.MINI_DATABASE_FILE = ":memory:";
const { transaction } = await import("../db");
const { addToCart } = await import("../shop");
const { miniServicePayStore: store } = await import("./service-pay-store");
const { miniTradeInStore } = await import("./trade-in-store");
const { miniTokenStore } = await import("./token-store");

const address = TEST_ADDRESS;
const details = {
  email: "a@example.com",
  billing: address,
  shipping: address,
  shippingMethod: "standard",
};
const valuation = {
  valuationState: "none",
  valuationItemId: null,
  valuationValue: null,
  valuationCurrency: null,
  valuationNote: "no trade-in",
};

async function pendingOrder(sessionId: string) {
  await transaction(() => addToCart(sessionId, "phone"));
  return store.transaction((tx) =>
    tx.createPendingOrder({
      status: "awaiting_payment",
      sessionId,
      customerId: null,
      details,
      valuation,
      shopBaseUrl: "http://shop",
      note: "test",
    }),
  );
}

function notification(dedupeKey: string): OrderNotification {
  return {
    dedupeKey,
    notificationId: "wh_1",
    event: "order.payment_completed",
    serviceOrderId: "ord_1",
    cartId: "cart_x",
    status: "payment_completed",
    amount: 100,
    currency: "EUR",
    tradeInDiscount: 0,
    customerId: null,
    form: "flat",
    body: "{}",
  };
}

describe("minimal shop adapter", () => {
  beforeAll(() => {
    process.env.MINI_SHOP_URL = "http://shop";
  });

  it("stores a notification once, however many copies arrive at the same moment", async () => {
    const ids = await Promise.all(
      Array.from({ length: 10 }, () =>
        store.transaction((tx) => tx.claimNotification(notification("k1"))),
      ),
    );
    expect(ids.filter((id) => id !== null)).toHaveLength(1);
  });

  it("makes one order of a cart: a second pending order finds the cart closed", async () => {
    const first = await pendingOrder("s1");
    expect(first?.status).toBe("awaiting_payment");
    const again = await store.transaction((tx) =>
      tx.createPendingOrder({
        status: "awaiting_payment",
        sessionId: "s1",
        customerId: null,
        details,
        valuation,
        shopBaseUrl: "",
        note: "",
      }),
    );
    expect(again).toBeNull();
  });

  it("refuses to tie one service order to two shop orders, and writes nothing of that transaction", async () => {
    const a = await pendingOrder("s2");
    const b = await pendingOrder("s3");
    if (!a || !b) throw new Error("no orders");
    await store.transaction((tx) =>
      tx.changeOrder(a, { source: "service", note: "", serviceOrderId: "ord_9" }),
    );
    const error = await store
      .transaction(async (tx) => {
        await tx.changeOrder(b, { source: "service", note: "", to: "paid" });
        return tx.changeOrder(b, { source: "service", note: "", serviceOrderId: "ord_9" });
      })
      .catch((e: unknown) => e);
    expect(isConcurrentWrite(error)).toBe(true);
    const reread = await store.transaction((tx) => tx.findOrderFor(null, b.cartId));
    expect(reread?.status).toBe("awaiting_payment");
  });

  it("keeps one registration per order and lets one of two runners claim an attempt", async () => {
    const order = await pendingOrder("s4");
    if (!order) throw new Error("no order");
    const row = {
      orderId: order.id,
      sessionHash: "h",
      cart: "e30=",
      orderAmount: 1,
      customerId: null,
      precheck: true,
      attempts: 0,
      unreachable: false,
    };
    const created = await Promise.all([
      miniTradeInStore.create({ ...row, status: "queued", nextAttemptAt: new Date() }),
      miniTradeInStore.create({ ...row, status: "queued", nextAttemptAt: new Date() }),
    ]);
    expect(created.sort()).toEqual([false, true]);
    const found = await miniTradeInStore.find(order.id);
    if (!found) throw new Error("no registration");
    const until = new Date(Date.now() + 60_000);
    const claims = await Promise.all([
      miniTradeInStore.claim(found, until),
      miniTradeInStore.claim(found, until),
    ]);
    expect(claims.sort()).toEqual([false, true]);
  });

  it("gives the token renewal lease to one holder until it is released or expires", async () => {
    const tokens = miniTokenStore(createTokenSealer("k".repeat(32)));
    expect(await tokens.acquireRenewalLease("a", 60_000)).toBe(true);
    expect(await tokens.acquireRenewalLease("b", 60_000)).toBe(false);
    expect(await tokens.acquireRenewalLease("a", 60_000)).toBe(true);
    await tokens.releaseRenewalLease("a");
    expect(await tokens.acquireRenewalLease("b", 0)).toBe(true);
    expect(await tokens.acquireRenewalLease("a", 60_000)).toBe(true);
  });
});
