// Conformance checks of the Service Pay store and its notifications (ServicePayStore).
import { expect } from "vitest";
import { NOT_LOOKED_UP } from "../accepted-valuation.js";
import { createServicePayOrder, receiveNotification } from "../order-webhook.js";
import {
  ABANDONED_ORDER_AFTER_MS,
  createServicePendingOrder,
  pruneAbandonedOrders,
  servicePaymentOpen,
} from "../pending-order.js";
import { isConcurrentWrite } from "../shop-ports.js";
import {
  askToCollect,
  atOnce,
  cartIdOf,
  count,
  createPendingOrderOf,
  deps,
  expectAppliedOnce,
  historyCount,
  notification,
  orderOf,
  pendingOrder,
  tradeInDiscountFor,
} from "./conformance-helpers.js";
import { CONCURRENT_COPIES, type ConformanceHost, SHOP_BASE_URL } from "./conformance-host.js";

// ---------------------------------------------------------------------------------------------
// The Service Pay store

export async function openCartCheckoutRead(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  const other = await host.seedOpenCart();
  expect(await host.servicePay.openCartCheckout(cart.sessionId), "nothing kept yet").toBeNull();
  expect(await servicePaymentOpen(deps(host), cart.sessionId), "no payment open yet").toBe(false);
  const before = Date.now();
  await host.servicePay.transaction((tx) =>
    tx.saveCheckout({
      cartId,
      sessionId: cart.sessionId,
      customerId: null,
      details: cart.details,
      valuation: NOT_LOOKED_UP,
    }),
  );
  const kept = await host.servicePay.openCartCheckout(cart.sessionId);
  expect(kept?.cartId, "the open cart's details").toBe(cartId);
  expect(kept?.sessionId).toBe(cart.sessionId);
  expect(kept?.details, "the details as kept").toEqual(
    await host.servicePay.transaction((tx) => tx.loadCheckout(cartId)).then((k) => k?.details),
  );
  expect(kept?.keptAt, "keptAt is a Date").toBeInstanceOf(Date);
  expect(kept?.keptAt.getTime(), "kept now").toBeGreaterThan(before - 60_000);
  expect(kept?.keptAt.getTime(), "kept now").toBeLessThan(Date.now() + 60_000);
  expect(await servicePaymentOpen(deps(host), cart.sessionId), "open while kept").toBe(true);
  const later = new Date(Date.now() + 31 * 60 * 1000);
  expect(await servicePaymentOpen(deps(host), cart.sessionId, later), "past the modal").toBe(false);
  expect(await host.servicePay.openCartCheckout(other.sessionId), "another session").toBeNull();
  await createPendingOrderOf(host, cart, cartId);
  expect(await host.servicePay.openCartCheckout(cart.sessionId), "the cart is an order").toBeNull();
  expect(await servicePaymentOpen(deps(host), cart.sessionId), "no cart open").toBe(false);
}

export async function rollsBackWhole(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  const n = notification(cart, cartId, "payment_completed");
  const boom = new Error("conformance: thrown midway");
  const thrown = await host.servicePay
    .transaction(async (tx) => {
      await tx.saveCheckout({
        cartId,
        sessionId: cart.sessionId,
        customerId: null,
        details: cart.details,
        valuation: NOT_LOOKED_UP,
      });
      const order = await createServicePayOrder(tx, {
        status: host.statuses.forServiceStatus.pending,
        sessionId: cart.sessionId,
        customerId: null,
        details: cart.details,
        valuation: NOT_LOOKED_UP,
        shopBaseUrl: SHOP_BASE_URL,
        note: "conformance: rolled back",
      });
      if (!order) throw new Error("createPendingOrder gave no order for the seeded cart");
      const id = await tx.claimNotification(n);
      if (!id) throw new Error("claimNotification refused a new notification");
      await tx.changeOrder(order, {
        to: host.statuses.forServiceStatus.payment_completed,
        source: "service",
        note: "conformance: rolled back",
      });
      await tx.settleNotification(id, order.id, "applied");
      throw boom;
    })
    .then(
      () => null,
      (error: unknown) => error,
    );
  expect(thrown, "the error thrown inside the transaction comes out as it is").toBe(boom);
  await host.servicePay.transaction(async (tx) => {
    expect(await tx.openCartId(cart.sessionId), "the cart is still open").toBe(cartId);
    expect(await tx.findOrderFor(null, cartId), "no order of the cart").toBeNull();
    expect(await tx.findSessionOrder(cart.sessionId, { cartId }), "no session order").toBeNull();
    expect(await tx.loadCheckout(cartId), "no kept checkout").toBeNull();
    expect(await tx.notificationOutcome(n.dedupeKey), "no stored notification").toBeNull();
    expect(await tx.hasWaitingNotification(cartId), "no waiting notification").toBe(false);
  });
  // And the rolled-back delivery, when it comes again, is applied as new.
  const receipt = await receiveNotification(deps(host), n);
  expect(receipt.outcome, "the repeated delivery is not taken for a duplicate").toBe("early");
}

export async function duplicateNotifications(host: ConformanceHost) {
  const { cart, cartId, order } = await pendingOrder(host);
  const n = notification(cart, cartId, "payment_completed");
  const receipts = await atOnce(CONCURRENT_COPIES, () => receiveNotification(deps(host), n));
  const outcomes = receipts.map((r) => r.outcome);
  expect(count(outcomes, "applied"), `outcomes: ${outcomes.join(", ")}`).toBe(1);
  expect(count(outcomes, "duplicate")).toBe(CONCURRENT_COPIES - 1);
  const paid = host.statuses.forServiceStatus.payment_completed;
  expect((await orderOf(host, cartId)).status).toBe(paid);
  await host.servicePay.transaction(async (tx) => {
    await expectAppliedOnce(tx, order.id, n.dedupeKey, paid);
  });
}

export async function duplicateEarlyNotifications(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  const n = notification(cart, cartId, "payment_completed");
  const receipts = await atOnce(CONCURRENT_COPIES, () => receiveNotification(deps(host), n));
  const outcomes = receipts.map((r) => r.outcome);
  expect(count(outcomes, "early"), `outcomes: ${outcomes.join(", ")}`).toBe(1);
  expect(count(outcomes, "duplicate")).toBe(CONCURRENT_COPIES - 1);
  const waiting = await host.servicePay.transaction((tx) => tx.waitingNotifications(cartId, null));
  expect(
    waiting.map((w) => w.dedupeKey),
    "stored once, waiting",
  ).toEqual([n.dedupeKey]);

  const order = await createPendingOrderOf(host, cart, cartId);
  const paid = host.statuses.forServiceStatus.payment_completed;
  expect(order.status).toBe(paid);
  const history = await host.servicePay.transaction((tx) => tx.statusHistory(order.id));
  expect(historyCount(history, paid), `history: ${history.join(" ← ")}`).toBe(1);
}

export async function onePendingOrderPerCart(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  await askToCollect(host, cart);
  const results = await atOnce(CONCURRENT_COPIES, () =>
    createServicePendingOrder(deps(host), {
      sessionId: cart.sessionId,
      customerId: null,
      cartId,
      details: cart.details,
    }),
  );
  const failed = results.filter((r) => !r.ok);
  expect(failed, "every call gives the cart's order").toEqual([]);
  const ok = results.flatMap((r) => (r.ok ? [r] : []));
  expect(ok.filter((r) => r.created).length, "created once").toBe(1);
  const ids = new Set(ok.map((r) => r.orderId));
  expect([...ids], "one order id for every call").toHaveLength(1);
  expect((await orderOf(host, cartId)).id).toBe([...ids][0]);
}

export async function webhookModeMakesOneOrder(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  const webhookDeps = deps(host, "webhook");
  // Payment start: the details are kept (webhook mode makes no order yet).
  const kept = await createServicePendingOrder(webhookDeps, {
    sessionId: cart.sessionId,
    customerId: null,
    cartId,
    details: cart.details,
  });
  expect(kept).toMatchObject({ ok: true, orderId: null });
  const n = notification(cart, cartId, "payment_completed");
  const receipts = await atOnce(CONCURRENT_COPIES, () => receiveNotification(webhookDeps, n));
  const outcomes = receipts.map((r) => r.outcome);
  expect(
    outcomes.filter((o) => o !== "duplicate"),
    `one delivery is not a duplicate: ${outcomes.join(", ")}`,
  ).toHaveLength(1);
  const numbers = new Set(receipts.flatMap((r) => (r.orderNumber ? [r.orderNumber] : [])));
  expect([...numbers], "every receipt names the one order").toHaveLength(1);
  const order = await orderOf(host, cartId);
  expect(order.number).toBe([...numbers][0]);
  const paid = host.statuses.forServiceStatus.payment_completed;
  expect(order.status).toBe(paid);
  await host.servicePay.transaction(async (tx) => {
    const latest = await tx.findSessionOrder(cart.sessionId, { since: new Date(0) });
    expect(latest?.id, "the session's latest order is the cart's one order").toBe(order.id);
    await expectAppliedOnce(tx, order.id, n.dedupeKey, paid);
  });
}

export async function uniqueServiceOrderId(host: ConformanceHost) {
  const first = await pendingOrder(host);
  const second = await pendingOrder(host);
  // The first order is tied to its service order by its notification.
  const n = notification(first.cart, first.cartId, "payment_completed");
  expect((await receiveNotification(deps(host), n)).outcome).toBe("applied");
  const serviceOrderId = n.serviceOrderId ?? "";
  expect((await orderOf(host, first.cartId)).serviceOrderId).toBe(serviceOrderId);
  const thrown = await host.servicePay
    .transaction(async (tx) => {
      const order = await tx.findOrderFor(null, second.cartId);
      if (!order) throw new Error("findOrderFor gives no order for the second cart");
      await tx.changeOrder(order, {
        to: host.statuses.forServiceStatus.completed,
        source: "service",
        note: "conformance: must not be written",
      });
      await tx.changeOrder(
        { ...order, status: host.statuses.forServiceStatus.completed },
        {
          serviceOrderId,
          source: "service",
          note: "conformance: a service order another order holds",
        },
      );
    })
    .then(
      () => null,
      (error: unknown) => error,
    );
  expect(isConcurrentWrite(thrown), `thrown: ${String(thrown)}`).toBe(true);
  const after = await orderOf(host, second.cartId);
  expect(after, "nothing of the transaction was written").toMatchObject({
    status: second.order.status,
    serviceOrderId: null,
  });
  const history = await host.servicePay.transaction((tx) => tx.statusHistory(after.id));
  expect(historyCount(history, host.statuses.forServiceStatus.completed)).toBe(0);
}

export async function earlyNotificationApplied(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  const n = notification(cart, cartId, "payment_completed");
  expect((await receiveNotification(deps(host), n)).outcome).toBe("early");
  expect(await host.servicePay.transaction((tx) => tx.hasWaitingNotification(cartId))).toBe(true);
  const order = await createPendingOrderOf(host, cart, cartId);
  expect(order).toMatchObject({
    status: host.statuses.forServiceStatus.payment_completed,
    serviceOrderId: `ord_${cartId}`,
    tradeInDiscount: tradeInDiscountFor(cart),
  });
  await host.servicePay.transaction(async (tx) => {
    expect(await tx.notificationOutcome(n.dedupeKey)).toEqual({
      outcome: "applied",
      orderId: order.id,
    });
    expect(await tx.hasWaitingNotification(cartId)).toBe(false);
  });
  // A repeat after the order exists changes nothing.
  expect((await receiveNotification(deps(host), n)).outcome).toBe("duplicate");
}

export async function outOfOrderNotifications(host: ConformanceHost) {
  const { completed, payment_completed: paid } = host.statuses.forServiceStatus;
  // One after the other: the later status first, the earlier one late.
  {
    const { cart, cartId } = await pendingOrder(host);
    const done = await receiveNotification(deps(host), notification(cart, cartId, "completed"));
    const late = await receiveNotification(
      deps(host),
      notification(cart, cartId, "payment_completed"),
    );
    expect([done.outcome, late.outcome]).toEqual(["applied", "recorded"]);
    expect((await orderOf(host, cartId)).status).toBe(completed);
  }
  // At the same moment, each order of start (findOrderFor locks the order).
  for (let round = 0; round < 4; round++) {
    const { cart, cartId, order } = await pendingOrder(host);
    const sends = [
      () => receiveNotification(deps(host), notification(cart, cartId, "payment_completed")),
      () => receiveNotification(deps(host), notification(cart, cartId, "completed")),
    ];
    if (round % 2 === 1) sends.reverse();
    await atOnce(2, (i) => (sends[i] as () => Promise<unknown>)());
    expect((await orderOf(host, cartId)).status, `round ${round}`).toBe(completed);
    const history = await host.servicePay.transaction((tx) => tx.statusHistory(order.id));
    // Newest first: completed last, payment_completed (if at all) only before it.
    expect(history[0], `round ${round}: ${history.join(" ← ")}`).toBe(completed);
    expect(historyCount(history, completed)).toBe(1);
    expect(historyCount(history, paid)).toBeLessThanOrEqual(1);
  }
}

export async function abandonedOrdersPruned(host: ConformanceHost) {
  const d = deps(host);
  const abandoned = await pendingOrder(host);
  // Named by the service (a pending notification carries its order id): kept.
  const named = await pendingOrder(host);
  await receiveNotification(d, notification(named.cart, named.cartId, "pending"));
  // A signed-in customer's: kept.
  const customer = await host.seedCustomer();
  const mine = await host.seedOpenCart();
  const mineCartId = await cartIdOf(host, mine);
  await askToCollect(host, mine);
  const made = await createServicePendingOrder(d, {
    sessionId: mine.sessionId,
    customerId: customer.id,
    cartId: mineCartId,
    details: mine.details,
  });
  expect(made, "the customer's pending order").toMatchObject({ ok: true, created: true });
  // The sweep's clock moved past the modal's lifetime plus the margin, or just short of it.
  const at = (ms: number) => ({ now: new Date(Date.now() + ABANDONED_ORDER_AFTER_MS + ms) });
  expect(await pruneAbandonedOrders(d, at(-60_000)), "none old enough yet").toBe(0);
  expect(await orderOf(host, abandoned.cartId), "still there").toBeTruthy();
  expect(await pruneAbandonedOrders(d, at(60_000)), "the guest's unnamed order").toBe(1);
  const [gone, kept, history, stillNamed, stillMine] = await host.servicePay.transaction(
    async (tx) => [
      await tx.findOrderFor(null, abandoned.cartId),
      await tx.loadCheckout(abandoned.cartId),
      await tx.statusHistory(abandoned.order.id),
      await tx.findOrderFor(null, named.cartId),
      await tx.findOrderFor(null, mineCartId),
    ],
  );
  expect(gone, "dropped (abandonedOrders, dropOrder)").toBeNull();
  expect(kept, "its kept checkout with it").toBeNull();
  expect(history, "its history with it").toEqual([]);
  expect(stillNamed?.serviceOrderId, "an order a notification named is kept").toBeTruthy();
  expect(stillMine?.customerId, "a customer's order is kept").toBe(customer.id);
  // A paid notification arriving late finds no order: stored, waiting for a person.
  const late = notification(abandoned.cart, abandoned.cartId, "payment_completed");
  expect((await receiveNotification(d, late)).outcome, "kept unmatched").toBe("early");
  const waiting = await host.servicePay.transaction((tx) =>
    tx.waitingNotifications(abandoned.cartId, late.serviceOrderId),
  );
  expect(
    waiting.map((n) => n.dedupeKey),
    "the late payment is kept",
  ).toEqual([late.dedupeKey]);
  expect(await pruneAbandonedOrders(d, at(60_000)), "nothing more to drop").toBe(0);
}
