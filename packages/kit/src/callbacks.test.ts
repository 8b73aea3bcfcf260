import { describe, expect, it } from "vitest";
import { purchaseDataFor, shopperDataFor } from "./callbacks.js";
import { sessionHash } from "./session-hash.js";
import type { SessionIdentity, ShopperSource } from "./shop-ports.js";
import { SHOPPER_NOT_FOUND } from "./shopper-data.js";

// The callbacks read the shopper through the host's SessionIdentity port, not a cookie of their own.

const request = new Request("http://shop.test/callbacks/shopper_data");
const identity = (sessionId: string, salt: string, customerId?: string): SessionIdentity => ({
  ofRequest: async (r) => (r === request ? { sessionId, salt, customerId } : null),
});
const anonymous: SessionIdentity = { ofRequest: async () => null };
// A shop that fails the test if asked: a request without a session must not reach it.
const untouchable = new Proxy({} as ShopperSource, {
  get() {
    throw new Error("the shop must not be asked");
  },
});
const shopWith = (sessions: string[]): ShopperSource => ({
  customer: async (id) => ({
    id,
    email: "ana@example.com",
    givenName: "Ana",
    familyName: "Ng",
    address: null,
  }),
  openCart: async (sessionId) => {
    sessions.push(sessionId);
    return null;
  },
  loadCheckout: async () => null,
  noteAskedToCollect: async () => {
    throw new Error("no cart: nothing asked");
  },
  shippingMethod: () => {
    throw new Error("no cart: no delivery");
  },
  defaultShippingMethod: "standard",
});

describe("callbacks over the SessionIdentity port", () => {
  it("answers a request without a session as anonymous, without asking the shop", async () => {
    expect(await shopperDataFor({ shop: untouchable, identity: anonymous }, request)).toEqual({
      status: 404,
      body: SHOPPER_NOT_FOUND,
    });
    const purchase = await purchaseDataFor(
      { shop: untouchable, identity: anonymous },
      request,
      "http://shop.test",
    );
    expect(purchase.purchase).toBeNull();
  });

  it("hashes the port's session id with the port's salt, and reads the cart by the port's id", async () => {
    const sessions: string[] = [];
    const deps = { shop: shopWith(sessions), identity: identity("sid-1", "salt-1", "cust_1") };
    const result = await shopperDataFor(deps, request);
    expect(result.status).toBe(200);
    expect(JSON.stringify(result.body)).toContain(sessionHash("sid-1", "salt-1"));
    await purchaseDataFor(deps, request, "http://shop.test");
    expect(sessions).toEqual(["sid-1"]);
  });
});

describe("purchase data's delivery line", () => {
  it("takes a delivery method the shop looks up asynchronously (rates not preloaded)", async () => {
    const shop: ShopperSource = {
      ...shopWith([]),
      openCart: async (id) => ({
        id: `cart-of-${id}`,
        currency: "EUR",
        items: [
          {
            productId: "p1",
            name: "Phone",
            description: "",
            url: "http://shop.test/p1",
            quantity: 1,
            price: 10_000,
            tax: 2_300,
          },
        ],
      }),
      shippingMethod: async (id, currency) => {
        await Promise.resolve();
        const price = currency === "EUR" ? 495 : 0;
        return { id, name: "Standard delivery", price, url: "http://shop.test/delivery" };
      },
    };
    const { purchase } = await purchaseDataFor(
      { shop, identity: identity("sid-2", "salt-2") },
      request,
      "http://shop.test",
    );
    expect(purchase?.shipping.method).toEqual({
      id: "standard",
      name: "Standard delivery",
      price: 495,
    });
    expect(purchase?.cart.total).toBe(10_000 + 2_300 + 495);
  });
});
