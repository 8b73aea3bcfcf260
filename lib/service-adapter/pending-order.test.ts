import { parseOrderNotification } from "@service-integration/kit";
import {
  receiveNotification,
  releaseServicePayment,
  saveServiceCheckout,
  servicePaymentOpen,
  settleAwaitedServiceOrder,
} from "@service-integration/kit/server";
import { serviceDown } from "@service-integration/kit/testing";
import { describe, expect, it } from "vitest";
import { serviceCheckoutSchema } from "@/lib/shop/checkout-input";
import { CHECKOUT, newSession, seedCart, setUpTestShop } from "@/test-support/test-shop";
import { servicePayDeps } from "./service";

// The confirmation page of a Service Pay payment whose order is not there yet (the page's
// ready-to-place-order call failed, or the order is created from the webhook).

const shop = setUpTestShop();

async function paying(options: { keepDetails: boolean }) {
  const session = newSession();
  const cart = await seedCart(shop.db, session.sessionId, [
    { productId: shop.products.phone.id, quantity: 1 },
  ]);
  if (options.keepDetails) {
    // The valuation stays unknown: these payments are range-checked only.
    await saveServiceCheckout(
      { ...servicePayDeps(), client: serviceDown() },
      {
        sessionId: session.sessionId,
        sessionHash: "hash",
        customerId: null,
        details: serviceCheckoutSchema.parse(CHECKOUT),
      },
    );
  }
  return { session, cart };
}

function notify(cartId: string, id: string) {
  const body = JSON.stringify({
    id,
    event: "order.payment_completed",
    order_id: `ord_${id}`,
    cart_id: cartId,
    status: "payment_completed",
    amount: 12300 + 1499, // items, tax and the express delivery: the Cart's total
    currency: "EUR",
    trade_in_discount: 1500,
  });
  return receiveNotification(
    servicePayDeps(),
    parseOrderNotification(new TextEncoder().encode(body)),
  );
}

describe("settleAwaitedServiceOrder", () => {
  it("is none when no Service Pay payment was started", async () => {
    const { session } = await paying({ keepDetails: false });
    const result = await settleAwaitedServiceOrder(servicePayDeps(), {
      sessionId: session.sessionId,
      customerId: null,
    });
    expect(result).toBe("none");
  });

  it("waits (and keeps the cart) while no signed notification arrived", async () => {
    const { session, cart } = await paying({ keepDetails: true });
    const params = { sessionId: session.sessionId, customerId: null };
    expect(await settleAwaitedServiceOrder(servicePayDeps(), params)).toBe("waiting");
    expect(await shop.db.order.count({ where: { cartId: cart.id } })).toBe(0);
    // Long after the details were kept, the page stops waiting.
    const later = new Date(Date.now() + 31 * 60 * 1000);
    expect(await settleAwaitedServiceOrder(servicePayDeps(), { ...params, now: later })).toBe(
      "none",
    );
  });

  it("creates the order from the kept details once a signed notification waits, applying it", async () => {
    const { session, cart } = await paying({ keepDetails: true });
    const early = await notify(cart.id, `wh_${cart.id}`);
    expect(early.outcome).toBe("early");
    const params = { sessionId: session.sessionId, customerId: null };
    expect(await settleAwaitedServiceOrder(servicePayDeps(), params)).toBe("created");
    const order = await shop.db.order.findUniqueOrThrow({ where: { cartId: cart.id } });
    expect(order).toMatchObject({ status: "payment_completed", tradeInDiscount: 1500 });
    // Again (a refresh): the order exists, the cart is checked out, nothing more happens.
    expect(await settleAwaitedServiceOrder(servicePayDeps(), params)).toBe("none");
    expect(await shop.db.order.count({ where: { cartId: cart.id } })).toBe(1);
  });

  it("counts a payment as open from the kept details until the order exists, the window ends or the shopper cancels", async () => {
    const closed = await paying({ keepDetails: false });
    expect(await servicePaymentOpen(servicePayDeps(), closed.session.sessionId)).toBe(false);
    const { session, cart } = await paying({ keepDetails: true });
    expect(await servicePaymentOpen(servicePayDeps(), session.sessionId)).toBe(true);
    const later = new Date(Date.now() + 31 * 60 * 1000);
    expect(await servicePaymentOpen(servicePayDeps(), session.sessionId, later)).toBe(false);
    await releaseServicePayment(servicePayDeps(), session.sessionId);
    expect(await servicePaymentOpen(servicePayDeps(), session.sessionId)).toBe(false);
    expect(await shop.db.serviceCheckout.count({ where: { cartId: cart.id } })).toBe(0);
  });

  it("knows the open cart as the session's newest cart not checked out, and only while it has lines", async () => {
    const openCartId = (sessionId: string) =>
      servicePayDeps().store.transaction((tx) => tx.openCartId(sessionId));
    const session = newSession();
    expect(await openCartId(session.sessionId)).toBeNull();
    const line = { productId: shop.products.phone.id, quantity: 1 };
    const older = await seedCart(shop.db, session.sessionId, [line]);
    expect(await openCartId(session.sessionId)).toBe(older.id);
    await shop.db.cart.update({ where: { id: older.id }, data: { checkedOutAt: new Date() } });
    expect(await openCartId(session.sessionId)).toBeNull();
    const newer = await seedCart(shop.db, session.sessionId, [line]);
    expect(await openCartId(session.sessionId)).toBe(newer.id);
    expect(await openCartId(newSession().sessionId)).toBeNull();
    await shop.db.cartItem.deleteMany({ where: { cartId: newer.id } });
    expect(await openCartId(session.sessionId)).toBeNull();
  });
});
