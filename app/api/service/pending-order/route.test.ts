import { describe, expect, it } from "vitest";
import {
  CHECKOUT,
  jsonRequest,
  newSession,
  openPayment,
  seedCart,
  sessionCookie,
  setUpTestShop,
} from "@/test-support/test-shop";
import { POST } from "./route";

// The pending Service Pay order created on ready-to-place-order (contract, Events: "a merchant
// may instead create a pending order on ready-to-place-order"), idempotent by cart id.

const shop = setUpTestShop();

const URL = "http://shop.test/api/service/pending-order";

async function shopper() {
  const session = newSession();
  const cart = await seedCart(shop.db, session.sessionId, [
    { productId: shop.products.phone.id, quantity: 2 },
  ]);
  return { session, cart, cookie: await sessionCookie(session) };
}

describe("POST /api/service/pending-order", () => {
  it("creates one pending service_pay order per cart, however often it is called", async () => {
    const { session, cart, cookie } = await shopper();
    await openPayment(session);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        POST(jsonRequest(URL, { cart_id: cart.id, ...CHECKOUT }, cookie)),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const bodies = await Promise.all(results.map((r) => r.json()));
    expect(bodies.filter((b) => b.created)).toHaveLength(1);
    expect(new Set(bodies.map((b) => b.order_number)).size).toBe(1);
    const orders = await shop.db.order.findMany({ where: { cartId: cart.id } });
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      status: "pending",
      paymentMethod: "service_pay",
      price: 20000,
      tax: 4600,
      shippingPrice: 1499,
      total: 26099,
      number: bodies[0].order_number,
    });
    // The answer never carries the raw session id.
    expect(JSON.stringify(bodies)).not.toMatch(/a{56}/);
  });

  it("uses the details kept by POST /api/service/checkout when none are sent", async () => {
    const { session, cart, cookie } = await shopper();
    expect((await POST(jsonRequest(URL, { cart_id: cart.id }, cookie))).status).toBe(400);
    const { POST: keep } = await import("../checkout/route");
    await keep(jsonRequest("http://shop.test/api/service/checkout", CHECKOUT, cookie));
    await openPayment(session);
    const res = await POST(jsonRequest(URL, { cart_id: cart.id }, cookie));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ created: true, cart_id: cart.id });
  });

  it("never a Service Pay order owing €0.00: a trade-in kept at payment start worth the whole cart leaves the cart open and no order", async () => {
    const { cart, cookie } = await shopper();
    // What POST /api/service/checkout keeps when the service shows an accepted valuation worth
    // more than the cart (the service then refuses to collect €0.00).
    const { POST: keep } = await import("../checkout/route");
    await keep(jsonRequest("http://shop.test/api/service/checkout", CHECKOUT, cookie));
    await shop.db.serviceCheckout.update({
      where: { cartId: cart.id },
      data: {
        valuationState: "known",
        valuationItemId: "tradein-1",
        valuationValue: 1_000_000,
        valuationCurrency: "EUR",
      },
    });
    const res = await POST(jsonRequest(URL, { cart_id: cart.id }, cookie));
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: "nothing_to_pay" });
    expect(await shop.db.order.count({ where: { cartId: cart.id } })).toBe(0);
    expect(await shop.db.cart.findUnique({ where: { id: cart.id } })).toMatchObject({
      checkedOutAt: null,
    });
  });

  it("makes no order when a product's price changed after the payment window read purchase_data: 409 cart_changed, nothing written, and one again once the window shows the new total", async () => {
    const { session, cart, cookie } = await shopper();
    const shown = await openPayment(session);
    expect(shown?.total).toBe(26099);
    const price = { productId: shop.products.phone.id, currency: "EUR" };
    await shop.db.productPrice.updateMany({ where: price, data: { price: 10500 } });
    try {
      const res = await POST(jsonRequest(URL, { cart_id: cart.id, ...CHECKOUT }, cookie));
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ error: "cart_changed" });
      expect(await shop.db.order.count({ where: { cartId: cart.id } })).toBe(0);
      expect(await shop.db.cart.findUnique({ where: { id: cart.id } })).toMatchObject({
        checkedOutAt: null,
      });
      // The shopper opens the payment again: the service is asked the new total, and the order
      // owes it.
      expect((await openPayment(session))?.total).toBe(27099);
      const again = await POST(jsonRequest(URL, { cart_id: cart.id, ...CHECKOUT }, cookie));
      expect(again.status).toBe(200);
      expect(await shop.db.order.findUniqueOrThrow({ where: { cartId: cart.id } })).toMatchObject({
        price: 21000,
        total: 27099,
      });
    } finally {
      await shop.db.productPrice.updateMany({ where: price, data: { price: 10000 } });
    }
  });

  it("makes no order when the service was asked nothing for the cart (the route called without the payment window): 409, nothing written", async () => {
    const { cart, cookie } = await shopper();
    const res = await POST(jsonRequest(URL, { cart_id: cart.id, ...CHECKOUT }, cookie));
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: "cart_changed" });
    expect(await shop.db.order.count({ where: { cartId: cart.id } })).toBe(0);
    expect(await shop.db.serviceCheckout.count({ where: { cartId: cart.id } })).toBe(0);
  });

  it("refuses invalid details with 400 and writes nothing", async () => {
    const { cart, cookie } = await shopper();
    const res = await POST(
      jsonRequest(URL, { cart_id: cart.id, ...CHECKOUT, email: "not-an-email" }, cookie),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "bad_request" });
    expect(await shop.db.order.count({ where: { cartId: cart.id } })).toBe(0);
    expect(await shop.db.serviceCheckout.count({ where: { cartId: cart.id } })).toBe(0);
  });

  it("answers 409 for an empty cart or a cart id that is not the session's", async () => {
    const empty = await sessionCookie(newSession());
    expect((await POST(jsonRequest(URL, CHECKOUT, empty))).status).toBe(409);
    const { cookie } = await shopper();
    const other = await shopper();
    const res = await POST(jsonRequest(URL, { cart_id: other.cart.id, ...CHECKOUT }, cookie));
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: "cart_changed" });
  });

  it("needs JSON and a session", async () => {
    const { cookie } = await shopper();
    const form = new Request(URL, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: "email=a@b.c",
    });
    expect((await POST(form)).status).toBe(415);
    expect((await POST(jsonRequest(URL, CHECKOUT))).status).toBe(401);
    const broken = new Request(URL, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: "{",
    });
    expect((await POST(broken)).status).toBe(400);
  });
});
