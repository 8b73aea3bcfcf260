import { GUEST_EMAIL } from "@service-integration/kit/server";
import { describe, expect, it } from "vitest";
import {
  CHECKOUT,
  jsonRequest,
  newSession,
  SHOPPER_ADDRESS,
  seedCart,
  seedCustomer,
  sessionCookie,
  setUpTestShop,
} from "@/test-support/test-shop";
import { POST as checkout } from "../checkout/route";
import { GET } from "./route";

// Contract: Merchant endpoints (purchase_data), Resources › Purchase data, Cart, Cart item;
// amounts integer cents (rule 3); `purchase: null` for an empty cart.

const shop = setUpTestShop();

const get = (cookie: string) =>
  GET(new Request("http://shop.test/api/service/purchase_data", { headers: { cookie } }));

describe("GET /api/service/purchase_data", () => {
  it("answers purchase: null, uncached, without a cart and for an emptied cart", async () => {
    const session = newSession();
    const cookie = await sessionCookie(session);
    let res = await get(cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ purchase: null });
    await seedCart(shop.db, session.sessionId, []);
    res = await get(cookie);
    expect(await res.json()).toEqual({ purchase: null });
  });

  it("builds the contract's purchase from the live cart with exact arithmetic in cents", async () => {
    const customer = await seedCustomer(shop.db);
    const session = newSession(customer.id);
    const cookie = await sessionCookie(session);
    const cart = await seedCart(shop.db, session.sessionId, [
      { productId: shop.products.phone.id, quantity: 1 },
      { productId: shop.products.cable.id, quantity: 3 },
    ]);
    const body = await (await get(cookie)).json();
    const address = SHOPPER_ADDRESS;
    expect(body).toEqual({
      purchase: {
        cart: {
          id: cart.id,
          currency: "EUR",
          items: [
            {
              id: shop.products.phone.id,
              name: "phone",
              description: "phone description",
              url: `http://shop.test/products/${shop.products.phone.slug}`,
              quantity: 1,
              price: 10000,
              tax: 2300,
              total: 12300,
            },
            {
              id: shop.products.cable.id,
              name: "cable",
              description: "cable description",
              url: `http://shop.test/products/${shop.products.cable.slug}`,
              quantity: 3,
              price: 1999,
              tax: 1380, // 3 × 460
              total: 7377, // 3 × 1999 + 1380
            },
            {
              // The delivery is a line, so the service charges it (delivery-in-the-cart.md).
              id: "delivery:standard",
              name: "Standard delivery",
              description: "Delivery",
              url: "http://shop.test/",
              quantity: 1,
              price: 499,
              tax: 0,
              total: 499,
            },
          ],
          price: 16496, // 10000 + 3 × 1999 + 499
          tax: 3680,
          total: 20176, // price + tax, no discounts: everything the order owes
        },
        // The logged-in customer's saved address until the checkout sends its own.
        billing: address,
        shipping: {
          address,
          method: { id: "standard", name: "Standard delivery", price: 499 },
        },
        customer: { id: customer.id, email: customer.email },
      },
    });

    // Built fresh on every call: a changed cart shows at once.
    await shop.db.cartItem.deleteMany({
      where: { cartId: cart.id, productId: shop.products.cable.id },
    });
    const after = await (await get(cookie)).json();
    expect(after.purchase.cart).toMatchObject({ price: 10499, tax: 2300, total: 12799 });
  });

  it("uses the details the checkout sent for this cart, and a guest's email from them", async () => {
    const session = newSession();
    const cookie = await sessionCookie(session);
    const cart = await seedCart(shop.db, session.sessionId, [
      { productId: shop.products.cable.id, quantity: 1 },
    ]);
    let body = await (await get(cookie)).json();
    expect(body.purchase.customer).toEqual({ id: `guest-${cart.id}`, email: GUEST_EMAIL });
    expect(body.purchase.billing.given_name).toBe("");

    const saved = await checkout(
      jsonRequest("http://shop.test/api/service/checkout", CHECKOUT, cookie),
    );
    expect(saved.status).toBe(200);
    body = await (await get(cookie)).json();
    expect(body.purchase.customer).toEqual({ id: `guest-${cart.id}`, email: CHECKOUT.email });
    expect(body.purchase.billing).toEqual(CHECKOUT.billing);
    expect(body.purchase.shipping).toEqual({
      address: CHECKOUT.billing,
      method: { id: "express", name: "Express delivery", price: 1499 },
    });
    // The delivery chosen at checkout is the Cart's delivery line: what the service charges.
    expect(body.purchase.cart.items.at(-1)).toMatchObject({ id: "delivery:express", total: 1499 });
    expect(body.purchase.cart.total).toBe(1999 + 460 + 1499);
    expect(JSON.stringify(body)).not.toContain(session.sessionId);
  });

  it("answers the contract's 400, naming the line, for a cart the contract's Cart cannot carry", async () => {
    // A price row the contract cannot express (negative tax): never a 500, never a half Cart.
    const broken = await shop.db.product.create({
      data: {
        slug: `broken-${Date.now()}`,
        name: "broken",
        description: "broken description",
        image: "/products/broken.svg",
        categoryId: (await shop.db.category.findFirstOrThrow()).id,
        prices: { create: [{ currency: "EUR", price: 1000, tax: -5 }] },
      },
    });
    const session = newSession();
    const cookie = await sessionCookie(session);
    await seedCart(shop.db, session.sessionId, [{ productId: broken.id, quantity: 2 }]);
    const res = await get(cookie);
    expect(res.status).toBe(400);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body.error).toBe("bad_request");
    expect(body.error_description).toContain(
      `line ${broken.id}: tax must be a whole number of cents`,
    );
  });
});
