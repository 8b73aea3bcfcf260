// The adapter's own checks where the kit's conformance suite is silent: the store-then-apply
// store (batch, claim, order of application), a unique violation answered as the kit's
// ConcurrentWriteError and any other error as it is, and the ports the suite does not reach
// (the back office's look-ups, the unreachable memory, the inspector). Run on both databases.
import { randomUUID } from "node:crypto";
import {
  type CheckoutDetails,
  isConcurrentWrite,
  type OrderNotification,
  parseOrderNotification,
} from "@service-integration/kit";
import {
  createNotificationInbox,
  createServicePendingOrder,
  paymentMismatch,
  receiveNotification,
} from "@service-integration/kit/server";
import {
  openPaymentWindow,
  queuedRegistration,
  type SuiteDatabase,
} from "@service-integration/kit/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Builder, DrizzleServiceAdapter } from "../core.js";
import { testShopStatuses } from "./shop-callbacks.js";
import type { pgShop } from "./shop-tables.js";

export interface AdapterUnderTest {
  adapter: DrizzleServiceAdapter;
  /** A new session with an open cart of one line; its details and what the order owes. */
  seedOpenCart(): Promise<{
    sessionId: string;
    details: CheckoutDetails;
    owes: number;
  }>;
  /** Runs `fn` on the shop's database (SQLite: in the adapter's queue). */
  onShop<T>(fn: (q: Builder, tables: typeof pgShop) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const SHOP = "http://shop.test";

function notification(
  cartId: string,
  status: "payment_completed" | "completed",
  owes: number,
): OrderNotification {
  const body = {
    id: `wh_${randomUUID()}`,
    event: `order.${status}`,
    order_id: `ord_${cartId}`,
    cart_id: cartId,
    status,
    amount: owes,
    currency: "EUR",
    trade_in_discount: 0,
  };
  return parseOrderNotification(new TextEncoder().encode(JSON.stringify(body)));
}

/** The checks, each on an adapter `open` gives it, closed when the check ends: over a new
 *  database each, or over one for the file emptied between checks (`open.open` makes it before
 *  the first check, outside its time limit; `open.dispose` removes it after the last). */
export function adapterChecks(
  label: string,
  open: (() => Promise<AdapterUnderTest>) & Partial<SuiteDatabase>,
): void {
  const withAdapter = (body: (t: AdapterUnderTest) => Promise<void>) => async () => {
    const t = await open();
    try {
      await body(t);
    } finally {
      await t.close();
    }
  };
  const deps = (t: AdapterUnderTest) => ({
    store: t.adapter.servicePay,
    statuses: testShopStatuses,
    mode: "ready_to_place_order" as const,
    shopBaseUrl: SHOP,
  });
  async function placed(t: AdapterUnderTest) {
    const cart = await t.seedOpenCart();
    const cartId = await t.adapter.servicePay.transaction((tx) => tx.openCartId(cart.sessionId));
    if (!cartId) throw new Error("no open cart");
    await openPaymentWindow(t.adapter, cart, SHOP);
    const made = await createServicePendingOrder(deps(t), {
      sessionId: cart.sessionId,
      customerId: null,
      cartId,
      details: cart.details,
    });
    if (!made.ok || !made.orderId) throw new Error(JSON.stringify(made));
    return { ...cart, cartId, orderId: made.orderId };
  }

  describe(`the Drizzle adapter's own checks (${label})`, () => {
    beforeAll(() => open.open?.());
    afterAll(() => open.dispose?.());

    it(
      "stores a batch in one go, each dedupe key once (within the batch and across batches), and the inbox applies the stored rows oldest first",
      withAdapter(async (t) => {
        const { cartId, owes, orderId } = await placed(t);
        const paid = notification(cartId, "payment_completed", owes);
        const done = notification(cartId, "completed", owes);
        const ids = await t.adapter.servicePay.storeBatch([paid, paid, done]);
        expect(ids[0]).toEqual(expect.any(String));
        expect(ids[1], "the second copy in the batch").toBeNull();
        expect(ids[2]).toEqual(expect.any(String));
        expect(await t.adapter.servicePay.storeBatch([done]), "stored before").toEqual([null]);
        const unapplied = await t.adapter.servicePay.unapplied(10);
        expect(unapplied.map((n) => n.dedupeKey)).toEqual([paid.dedupeKey, done.dedupeKey]);
        // The later row waits for the earlier one of its cart.
        const before = await t.adapter.servicePay.transaction((tx) =>
          tx.storedBefore(ids[2] as string, cartId, null),
        );
        expect(before.map((n) => n.id)).toEqual([ids[0]]);

        const inbox = createNotificationInbox({ ...deps(t), store: t.adapter.servicePay });
        expect(await inbox.applyUnapplied()).toBe(2);
        expect(await t.adapter.servicePay.unapplied(10)).toEqual([]);
        const history = await t.adapter.servicePay.transaction((tx) => tx.statusHistory(orderId));
        expect(history, "newest first").toEqual(["complete", "paid", "awaiting_payment"]);
      }),
    );

    it(
      "an order's cart-level discounts (discount_total): read into the kit's order, the paid amount must have them taken off, and a change keeps them in the total",
      withAdapter(async (t) => {
        const { cartId, owes, orderId } = await placed(t);
        // The shop fixed a €20.00 promotion code on the order when it was created.
        const off = 2_000;
        await t.onShop((q, s) =>
          q
            .update(s.orders)
            .set({ discountTotal: off, total: owes - off })
            .where(eq(s.orders.id, orderId)),
        );
        const read = await t.adapter.orders.order(orderId);
        expect(read).toMatchObject({ discountTotal: off, total: owes - off });
        // The amount before the discount (the discount not taken off) holds the order…
        const locked = await t.adapter.servicePay.transaction((tx) =>
          tx.findOrderFor(null, cartId),
        );
        expect(locked?.discountTotal).toBe(off);
        if (!locked) throw new Error("no order");
        expect(paymentMismatch(locked, notification(cartId, "payment_completed", owes))).toContain(
          "less discounts of €20.00",
        );
        // …the discounted amount pays it, and the re-derived total keeps the discount.
        const paid = notification(cartId, "payment_completed", owes - off);
        expect((await receiveNotification(deps(t), paid)).outcome).toBe("applied");
        expect(await t.adapter.orders.order(orderId)).toMatchObject({
          status: "paid",
          discountTotal: off,
          total: owes - off,
        });
      }),
    );

    it(
      "claimStored moves a stored row once among 20 appliers at once; a rolled-back claim leaves it stored",
      withAdapter(async (t) => {
        const { cartId, owes } = await placed(t);
        const [id] = await t.adapter.servicePay.storeBatch([
          notification(cartId, "payment_completed", owes),
        ]);
        const boom = new Error("rolled back");
        await expect(
          t.adapter.servicePay.transaction(async (tx) => {
            expect(await tx.claimStored(id as string)).toBe(true);
            throw boom;
          }),
        ).rejects.toBe(boom);
        const claims = await Promise.all(
          Array.from({ length: 20 }, () =>
            t.adapter.servicePay.transaction((tx) => tx.claimStored(id as string)),
          ),
        );
        expect(claims.filter(Boolean)).toHaveLength(1);
      }),
    );

    it(
      "a unique key taken inside a transaction is answered ConcurrentWriteError and nothing of it is written; any other error comes out as it is",
      withAdapter(async (t) => {
        const { sessionId, details, cartId, orderId } = await placed(t);
        // The cart is open again (as a second instance would still have read it): the shop's
        // order insert meets the cartId key.
        await t.onShop((q, s) =>
          q.update(s.carts).set({ checkedOutAt: null }).where(eq(s.carts.id, cartId)),
        );
        const thrown = await t.adapter.servicePay
          .transaction(async (tx) => {
            const changed = { ...details, email: "changed@example.com" };
            await tx.saveCheckout({ cartId, sessionId, customerId: null, details: changed });
            return tx.createPendingOrder({
              status: testShopStatuses.forServiceStatus.pending,
              sessionId,
              customerId: null,
              details,
              valuation: {
                valuationState: null,
                valuationItemId: null,
                valuationValue: null,
                valuationCurrency: null,
                valuationNote: null,
              },
              shopBaseUrl: SHOP,
              note: "second order of the cart",
            });
          })
          .catch((error: unknown) => error);
        expect(isConcurrentWrite(thrown), String(thrown)).toBe(true);
        expect((thrown as Error).cause, "the driver's error kept as the cause").toBeDefined();
        await t.adapter.servicePay.transaction(async (tx) => {
          const kept = await tx.loadCheckout(cartId);
          expect(kept?.details.email, "the kept checkout as it was").toBe(details.email);
          expect(await tx.statusHistory(orderId)).toEqual(["awaiting_payment"]);
        });

        const other = await t.adapter.servicePay
          .transaction((tx) => tx.settleNotification("no-such-row", orderId, "applied"))
          .catch((error: unknown) => error);
        expect(isConcurrentWrite(other)).toBe(false);
        expect((other as Error).message).toMatch(/no stored notification/);
      }),
    );

    it(
      "the back office's look-ups: orders by service or cart id, held orders with the note that held them, notification ids used twice",
      withAdapter(async (t) => {
        const first = await placed(t);
        const second = await placed(t);
        const n = notification(first.cartId, "payment_completed", first.owes);
        expect((await receiveNotification(deps(t), n)).outcome).toBe("applied");
        // A payment that does not match the order holds it for a person.
        const wrong = notification(second.cartId, "payment_completed", second.owes + 100);
        expect((await receiveNotification(deps(t), wrong)).outcome).toBe("held");
        // The first notification's id, again, for another payment.
        const reused = parseOrderNotification(
          new TextEncoder().encode(
            JSON.stringify({
              id: n.notificationId,
              event: "order.completed",
              order_id: `ord_${second.cartId}`,
              cart_id: second.cartId,
              status: "completed",
              amount: second.owes,
              currency: "EUR",
              trade_in_discount: 0,
            }),
          ),
        );
        await receiveNotification(deps(t), reused);

        const found = await t.adapter.orders.findOrders([`ord_${first.cartId}`], [second.cartId]);
        expect(found.map((o) => o.id).sort()).toEqual([first.orderId, second.orderId].sort());
        expect(await t.adapter.orders.findOrders([], [])).toEqual([]);
        const attention = await t.adapter.orders.needsAttention();
        expect(attention.held.map((o) => o.id)).toEqual([second.orderId]);
        expect(attention.held[0]?.heldBecause).not.toBe("");
        expect(attention.reusedNotificationIds).toEqual([n.notificationId]);
        const order = await t.adapter.orders.order(first.orderId);
        // The merchant endpoints' view: the shop's open cart, the kept details from the adapter.
        const fresh = await t.seedOpenCart();
        expect(await t.adapter.shopper.openCart(fresh.sessionId, SHOP)).toMatchObject({
          currency: "EUR",
          items: [{ productId: "phone", quantity: 1 }],
        });
        expect((await t.adapter.shopper.loadCheckout(first.cartId))?.details).toEqual(
          first.details,
        );
        expect(order?.items.map((i) => i.productId)).toEqual(["phone"]);
        expect(order?.delivery.price).toBe(order?.shippingPrice);
      }),
    );

    it(
      "remembers an unreachable attempt (the typed flag, not the error's text) and the trade-in a session saw",
      withAdapter(async (t) => {
        const { orderId, sessionId } = await placed(t);
        const since = new Date(Date.now() - 60_000);
        expect(await t.adapter.tradeIns.create(queuedRegistration(orderId, new Date()))).toBe(true);
        const row = await t.adapter.tradeIns.find(orderId);
        if (!row) throw new Error("no row");
        const result = {
          status: "queued" as const,
          precheck: false,
          reason: "",
          lastError: "network: connection refused",
          nextAttemptAt: new Date(),
        };
        await t.adapter.tradeIns.finish(row, { ...result, unreachable: false }, null);
        expect(await t.adapter.tradeIns.unreachableSince(since), "a 'network:' text alone").toBe(
          false,
        );
        await t.adapter.tradeIns.finish(row, { ...result, lastError: "", unreachable: true }, null);
        expect(await t.adapter.tradeIns.unreachableSince(since)).toBe(true);
        expect((await t.adapter.tradeIns.find(orderId))?.unreachable, "find reads it").toBe(true);
        expect(await t.adapter.tradeIns.unreachableSince(new Date(Date.now() + 60_000))).toBe(
          false,
        );

        expect(await t.adapter.tradeIns.tradeInSeen(sessionId)).toBeNull();
        await t.adapter.noteTradeInSeen(sessionId, "tradein_1");
        await t.adapter.noteTradeInSeen(sessionId, "tradein_2");
        expect(await t.adapter.tradeIns.tradeInSeen(sessionId)).toBe("tradein_2");
      }),
    );

    it(
      "the inspector: a key's log entries after a seq, oldest first, and the webhook entries of the session's orders",
      withAdapter(async (t) => {
        const { cartId, owes, sessionId } = await placed(t);
        const entry = { at: new Date().toISOString(), kind: "api" as const, ok: true };
        await t.adapter.integrationLog.append("k1", { ...entry, label: "first", status: 200 });
        await t.adapter.integrationLog.append("k2", { ...entry, label: "elsewhere" });
        await t.adapter.integrationLog.append("k1", { ...entry, label: "second", detail: "d" });
        const read = await t.adapter.integrationLog.read("k1", 0);
        expect(read.map((e) => e.label)).toEqual(["first", "second"]);
        expect(read[0]).toMatchObject({ status: 200, ok: true, kind: "api" });
        expect(await t.adapter.integrationLog.read("k1", read[0]?.seq ?? 0)).toHaveLength(1);

        await receiveNotification(deps(t), notification(cartId, "payment_completed", owes));
        const seen = await t.adapter.inspector.sessionNotifications(sessionId);
        expect(seen).toMatchObject([{ status: "payment_completed", outcome: "applied" }]);
        expect(seen[0]?.orderNumber).toMatch(/^T-/);
      }),
    );
  });
}
