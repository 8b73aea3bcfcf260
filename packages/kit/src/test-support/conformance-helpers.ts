// The conformance suite's helpers shared by the per-port checks (shop-ports-conformance.ts).
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { totalBeforeTradeIn } from "../cart.js";
import type { NotificationDeps } from "../order-webhook.js";
import { createServicePendingOrder } from "../pending-order.js";
import type { ServicePayTx, ShopOrder } from "../shop-ports.js";
import { type OrderNotification, parseOrderNotification } from "../webhook-payload.js";
import { type ConformanceHost, type SeededCart, SHOP_BASE_URL } from "./conformance-host.js";
import { openPaymentWindow } from "./payment-window.js";

// ---------------------------------------------------------------------------------------------
// Helpers

export function deps(
  host: ConformanceHost,
  mode: NotificationDeps["mode"] = "ready_to_place_order",
) {
  return { store: host.servicePay, statuses: host.statuses, mode, shopBaseUrl: SHOP_BASE_URL };
}

/** Runs `n` calls at once; every one must resolve (an unhandled error fails the check). */
export async function atOnce<T>(n: number, call: (i: number) => Promise<T>): Promise<T[]> {
  const settled = await Promise.allSettled(Array.from({ length: n }, (_, i) => call(i)));
  const failed = settled.flatMap((s) => (s.status === "rejected" ? [s.reason] : []));
  if (failed.length > 0) {
    const first = failed[0] instanceof Error ? failed[0].message : String(failed[0]);
    throw new Error(`${failed.length} of ${n} concurrent calls threw; the first: ${first}`);
  }
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

export const count = <T>(values: readonly T[], value: T) =>
  values.filter((v) => v === value).length;

/** The cart id of a seeded cart, read through the store. */
export async function cartIdOf(host: ConformanceHost, cart: SeededCart): Promise<string> {
  const cartId = await host.servicePay.transaction((tx) => tx.openCartId(cart.sessionId));
  if (!cartId) throw new Error("seedOpenCart: the seeded session has no open cart (openCartId)");
  return cartId;
}

/** The payment window opens for the seeded cart (adapter-test-shop.ts, openPaymentWindow):
 *  purchase_data answers while the payment is open, and the kit keeps what it asked. */
export async function askToCollect(host: ConformanceHost, cart: SeededCart) {
  const shown = await openPaymentWindow(host, cart, SHOP_BASE_URL);
  expect(
    shown?.total,
    "purchase_data's Cart owes what the order owes (seedOpenCart's `owes`)",
  ).toBe(cart.owes);
  return shown;
}

/** A seeded cart and its pending order, made by the kit's ready-to-place-order step. */
export async function pendingOrder(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  await askToCollect(host, cart);
  const result = await createServicePendingOrder(deps(host), {
    sessionId: cart.sessionId,
    customerId: null,
    cartId,
    details: cart.details,
  });
  if (!result.ok || !result.orderId) {
    throw new Error(`the pending order was not created: ${JSON.stringify(result)}`);
  }
  const order = await orderOf(host, cartId);
  expect(totalBeforeTradeIn(order), "seedOpenCart's `owes`").toBe(cart.owes);
  return { cart, cartId, order };
}

export async function orderOf(host: ConformanceHost, cartId: string): Promise<ShopOrder> {
  const order = await host.servicePay.transaction((tx) => tx.findOrderFor(null, cartId));
  if (!order) throw new Error(`no order for cart ${cartId}`);
  return order;
}

/** A notification as the webhook parses it from the service's bytes. */
export function notification(
  cart: SeededCart,
  cartId: string,
  status: "pending" | "payment_completed" | "completed",
  id = `wh_${randomUUID()}`,
): OrderNotification {
  const body = {
    id,
    event: `order.${status}`,
    order_id: `ord_${cartId}`,
    cart_id: cartId,
    status,
    amount: cart.owes,
    currency: cart.currency,
    trade_in_discount: tradeInDiscountFor(cart),
  };
  return parseOrderNotification(new TextEncoder().encode(JSON.stringify(body)));
}

/** A discount the payment check allows on an order with no looked-up valuation (range only). */
export const tradeInDiscountFor = (cart: SeededCart) => Math.floor(cart.owes / 10);

export function historyCount(history: string[], status: string): number {
  return count(history, status);
}

/** Creates the seeded cart's pending order through the kit (as the checkout route does). */
export async function createPendingOrderOf(
  host: ConformanceHost,
  cart: SeededCart,
  cartId: string,
) {
  await askToCollect(host, cart);
  const result = await createServicePendingOrder(deps(host), {
    sessionId: cart.sessionId,
    customerId: null,
    cartId,
    details: cart.details,
  });
  expect(result).toMatchObject({ ok: true, created: true });
  return orderOf(host, cartId);
}

/** The order reached `status` once, and the notification is recorded as applied to it. */
export async function expectAppliedOnce(
  tx: ServicePayTx,
  orderId: string,
  dedupeKey: string,
  status: string,
): Promise<void> {
  const history = await tx.statusHistory(orderId);
  expect(historyCount(history, status), `history: ${history.join(" ← ")}`).toBe(1);
  expect(await tx.notificationOutcome(dedupeKey)).toEqual({ outcome: "applied", orderId });
}
