// The adapter's own checks, for what the kit's conformance suite leaves out (its ports with
// "none (its types only)"): the inspector's log and feed, the back office's look-ups, and the
// rows as the kit's types on each database (Date, boolean, number; SQLite stores ms and 0/1).
import { randomUUID } from "node:crypto";
import { dedupeKey, type OrderNotification } from "@service-integration/kit";
import { type SuiteDatabase, testCheckout } from "@service-integration/kit/testing";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { TestDatabase } from "./host.js";

function notification(n: Partial<OrderNotification>): OrderNotification {
  const base = {
    notificationId: randomUUID(),
    event: "order.updated",
    serviceOrderId: null,
    cartId: null,
    status: "pending",
    ...n,
  };
  return {
    dedupeKey: dedupeKey(base),
    amount: null,
    currency: null,
    tradeInDiscount: null,
    customerId: null,
    form: "flat",
    body: "{}",
    ...base,
  };
}

/** A new session's order of one phone, made in a Service Pay transaction as the kit makes one. */
async function placeOrder({ db, adapter }: TestDatabase) {
  const sessionId = randomUUID();
  const cartId = randomUUID();
  await db.insertInto("carts").values({ id: cartId, sessionId }).execute();
  await db.insertInto("cartLines").values({ cartId, productId: "phone", quantity: 1 }).execute();
  const { details } = testCheckout(sessionId);
  const valuation = { valuationState: null, valuationItemId: null, valuationValue: null };
  const order = await adapter.servicePay.transaction((tx) =>
    tx.createPendingOrder({
      ...{ status: "awaiting_payment", sessionId, customerId: null, details, note: "test" },
      valuation: { ...valuation, valuationCurrency: null, valuationNote: null },
      shopBaseUrl: "http://shop.test",
    }),
  );
  if (!order) throw new Error("no order made of the open cart");
  return { sessionId, cartId, order };
}

/** The checks, each on a database `open` gives it, closed when the check ends (passed or not):
 *  a new one each, or one for the file emptied between checks (`open.open` makes it before the
 *  first check, outside its time limit; `open.dispose` removes it after the last). */
export function adapterChecks(
  database: string,
  open: (() => Promise<TestDatabase>) & Partial<SuiteDatabase>,
) {
  const withDatabase = (check: (t: TestDatabase) => Promise<void>) => async () => {
    const t = await open();
    onTestFinished(() => t.close());
    await check(t);
  };

  describe(`the Kysely adapter's own checks (${database})`, () => {
    beforeAll(() => open.open?.());
    afterAll(() => open.dispose?.());

    it(
      "the inspector's log reads a key's entries oldest first, after a seq, as the kit's types",
      withDatabase(async ({ adapter }) => {
        const log = adapter.integrationLog;
        const at = "2030-01-01T12:00:00.123Z";
        await log.append("k", { at, kind: "api", label: "GET /a", ok: true, status: 200 });
        await log.append("other", { at, kind: "step", label: "elsewhere", ok: true });
        await log.append("k", { at, kind: "step", label: "b", ok: false, durationMs: 7 });
        await log.append("k", { at, kind: "webhook", label: "c", ok: true, expected: "fine" });
        const all = await log.read("k", 0);
        expect(all.map((e) => e.label)).toEqual(["GET /a", "b", "c"]);
        expect(all[0]).toEqual({
          seq: all[0]?.seq,
          at,
          kind: "api",
          label: "GET /a",
          ok: true,
          status: 200,
        });
        expect(all[1]).toMatchObject({ ok: false, durationMs: 7 });
        expect(all[1]).not.toHaveProperty("status");
        expect(all[2]).toMatchObject({ expected: "fine" });
        const later = await log.read("k", all[0]?.seq ?? 0);
        expect(later.map((e) => e.label)).toEqual(["b", "c"]);
      }),
    );

    it(
      "the back office finds orders by cart or service order, lists held orders with why, and notification ids used twice",
      withDatabase(async (t) => {
        const { cartId, order } = await placeOrder(t);
        expect(await t.adapter.orders.findOrders(["none"], [])).toEqual([]);
        expect((await t.adapter.orders.findOrders(["none"], [cartId])).map((o) => o.id)).toEqual([
          order.id,
        ]);
        await t.adapter.orders.changeOrder(order, {
          to: "on_hold",
          source: "admin",
          note: "check the address",
        });
        const reused = randomUUID();
        await t.adapter.servicePay.storeBatch([
          notification({ notificationId: reused, cartId: "a" }),
          notification({ notificationId: reused, cartId: "b" }),
          notification({ cartId: "c" }),
        ]);
        const attention = await t.adapter.orders.needsAttention();
        expect(attention.held.map((o) => [o.id, o.status, o.heldBecause])).toEqual([
          [order.id, "on_hold", "check the address"],
        ]);
        expect(attention.reusedNotificationIds).toEqual([reused]);
      }),
    );

    it(
      "the inspector's feed gives the notifications of the session's orders with their numbers and times",
      withDatabase(async (t) => {
        const { sessionId, cartId, order } = await placeOrder(t);
        const before = Date.now();
        await t.adapter.servicePay.transaction(async (tx) => {
          const id = await tx.claimNotification(
            notification({ cartId, status: "payment_completed" }),
          );
          if (!id) throw new Error("not claimed");
          await tx.settleNotification(id, order.id, "applied");
        });
        const feed = await t.adapter.inspector.sessionNotifications(sessionId);
        expect(feed).toEqual([
          {
            receivedAt: expect.any(Date),
            event: "order.updated",
            status: "payment_completed",
            outcome: "applied",
            orderNumber: order.number,
          },
        ]);
        expect(feed[0]?.receivedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
        expect(await t.adapter.inspector.sessionNotifications(randomUUID())).toEqual([]);
      }),
    );

    it(
      "a stored notification is listed unapplied, oldest first, until claimed",
      withDatabase(async ({ adapter }) => {
        const [first, second] = await adapter.servicePay.storeBatch([
          notification({ cartId: "x" }),
          notification({ cartId: "y" }),
        ]);
        expect((await adapter.servicePay.unapplied(10)).map((n) => n.id)).toEqual([first, second]);
        await adapter.servicePay.transaction(async (tx) => {
          expect(await tx.claimStored(first as string)).toBe(true);
          expect(await tx.claimStored(first as string), "claimed once").toBe(false);
        });
        expect((await adapter.servicePay.unapplied(10)).map((n) => n.id)).toEqual([second]);
      }),
    );
  });
}
