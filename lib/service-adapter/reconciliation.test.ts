import type { OrderList } from "@service-integration/kit";
import { reconcileServiceOrders } from "@service-integration/kit/server";
import { describe, expect, it, vi } from "vitest";
import { POST as pendingOrder } from "@/app/api/service/pending-order/route";
import {
  newSession,
  openPayment,
  pendingOrderRequest,
  seedCart,
  sessionCookie,
  setUpTestShop,
  withHistory,
} from "@/test-support/test-shop";
import { serviceOrderDeps } from "./service";

// Reconciliation against a migrated SQLite: a pending Service Pay order whose webhook never came
// is repaired through the webhook's own path, once; unknown carts are reported, not invented.

const shop = setUpTestShop();

async function pendingServiceOrder() {
  const session = newSession();
  const cart = await seedCart(shop.db, session.sessionId, [
    { productId: shop.products.phone.id, quantity: 1 },
  ]);
  await openPayment(session);
  const response = await pendingOrder(pendingOrderRequest(cart.id, await sessionCookie(session)));
  expect(response.status).toBe(200);
  return cart.id;
}

/** What pendingServiceOrder's order owes: the phone (100.00 + 23.00) and express delivery. */
const OWED = 12300 + 1499;

const listing = (orders: OrderList["orders"]) => ({
  listOrders: vi.fn(async () => ({ orders })),
});

describe("reconcileServiceOrders", () => {
  it("repairs a pending order the service lists as paid, and a second run changes nothing", async () => {
    const cartId = await pendingServiceOrder();
    const client = listing([
      {
        order_id: "ord_77",
        cart_id: cartId,
        status: "payment_completed",
        amount: OWED,
        currency: "EUR",
      },
      { order_id: "ord_78", cart_id: "cart-nobody-has", status: "payment_completed" },
    ]);
    const first = await reconcileServiceOrders({ ...serviceOrderDeps(), client });
    expect(client.listOrders).toHaveBeenCalledWith({ status: "payment_completed", limit: 100 });
    expect(first).toMatchObject({ listed: 2, repaired: 1, unresolved: 1 });
    expect(first.lines.join("\n")).toMatch(/moved from pending to payment_completed/);
    expect(first.lines.join("\n")).toMatch(/cart-nobody-has\): no shop order has this cart/);
    const order = await withHistory(
      shop.db,
      await shop.db.order.findUniqueOrThrow({ where: { cartId } }),
    );
    expect(order).toMatchObject({ status: "payment_completed", serviceOrderId: "ord_77" });
    expect(order.history.filter((h) => h.to === "payment_completed")).toHaveLength(1);

    const second = await reconcileServiceOrders({ ...serviceOrderDeps(), client });
    expect(second).toMatchObject({ repaired: 0, inSync: 1, unresolved: 1 });
  });

  it("leaves a cart claimed by another service order for a person", async () => {
    const cartId = await pendingServiceOrder();
    await shop.db.order.update({ where: { cartId }, data: { serviceOrderId: "ord_other" } });
    const report = await reconcileServiceOrders({
      ...serviceOrderDeps(),
      client: listing([{ order_id: "ord_90", cart_id: cartId, status: "payment_completed" }]),
    });
    expect(report).toMatchObject({ repaired: 0, unresolved: 1 });
    expect(report.lines.join("\n")).toMatch(/holds service order ord_other/);
    const order = await shop.db.order.findUniqueOrThrow({ where: { cartId } });
    expect(order.status).toBe("pending");
  });

  it("reports an order held because the listed payment does not match it, and never pays it", async () => {
    const cartId = await pendingServiceOrder();
    const report = await reconcileServiceOrders({
      ...serviceOrderDeps(),
      client: listing([
        {
          order_id: "ord_91",
          cart_id: cartId,
          status: "payment_completed",
          amount: 100,
          currency: "EUR",
        },
      ]),
    });
    const order = await shop.db.order.findUniqueOrThrow({ where: { cartId } });
    expect(order.status).toBe("payment_mismatch");
    expect(report).toMatchObject({ repaired: 0, unresolved: 1 });
    expect(report.lines.join("\n")).toMatch(/held for a person: the payment does not match/);
    // The next run (the script, or the admin's button) still reports it.
    const next = await reconcileServiceOrders({ ...serviceOrderDeps(), client: listing([]) });
    expect(next.lines.join("\n")).toMatch(
      new RegExp(`shop order ${order.number} \\(cart ${cartId}\\) is held`),
    );
    // With the reason from its history.
    expect(next.lines.join("\n")).toMatch(/is held: .*amount €1\.00, the order owes €137\.99/);
  });

  it("flags a paid order whose amount the service collected differs from what the shop recorded", async () => {
    const cartId = await pendingServiceOrder();
    const paid = { order_id: "ord_95", cart_id: cartId, status: "payment_completed" };
    const first = await reconcileServiceOrders({
      ...serviceOrderDeps(),
      client: listing([{ ...paid, amount: OWED, currency: "EUR", trade_in_discount: 0 }]),
    });
    expect(first).toMatchObject({ repaired: 1, unresolved: 0 });
    const order = await shop.db.order.findUniqueOrThrow({ where: { cartId } });
    expect(order).toMatchObject({ status: "payment_completed", total: OWED });

    // Later the service lists the same order as having collected less than the shop recorded.
    for (const [listed, why] of [
      [
        { amount: OWED, trade_in_discount: 499 },
        /collected €133\.00, the shop recorded €137\.99 as paid/,
      ],
      [
        { amount: OWED - 499, trade_in_discount: 0 },
        /lists €133\.00 before the trade-in, the shop recorded €137\.99/,
      ],
      [{ amount: OWED, currency: "GBP" }, /lists it in GBP, the shop recorded EUR/],
    ] as const) {
      const report = await reconcileServiceOrders({
        ...serviceOrderDeps(),
        client: listing([{ ...paid, currency: "EUR", ...listed }]),
      });
      expect(report, JSON.stringify(listed)).toMatchObject({ inSync: 0, unresolved: 1 });
      expect(report.lines.join("\n")).toMatch(
        new RegExp(`shop order ${order.number} is paid, but the amounts differ`),
      );
      expect(report.lines.join("\n")).toMatch(why);
    }
    // What the shop recorded is left as it is: a person decides.
    expect(await shop.db.order.findUniqueOrThrow({ where: { cartId } })).toMatchObject({
      status: "payment_completed",
      total: OWED,
    });
  });

  it("cross-checks the cart id of a service order id the shop already knows", async () => {
    const cartId = await pendingServiceOrder();
    await shop.db.order.update({
      where: { cartId },
      data: { serviceOrderId: "ord_92", status: "payment_completed" },
    });
    const report = await reconcileServiceOrders({
      ...serviceOrderDeps(),
      client: listing([
        { order_id: "ord_92", cart_id: "cart-elsewhere", status: "payment_completed" },
      ]),
    });
    expect(report).toMatchObject({ inSync: 0, unresolved: 1 });
    expect(report.lines.join("\n")).toMatch(new RegExp(`is for cart ${cartId}; left for a person`));
  });
});
