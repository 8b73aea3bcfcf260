import { describe, expect, it } from "vitest";
import { buildCart } from "./cart.js";
import { buildPurchaseData, purchaseDataSchema } from "./purchase-data.js";

const address = {
  given_name: "Ana",
  family_name: "Ruiz",
  phone: "+34 600 000 000",
  address: "Calle Mayor 1",
  city: "Madrid",
  state: "Madrid",
  country_code: "ES",
  postal_code: "28013",
};
const cart = buildCart({
  id: "cart-1",
  currency: "EUR",
  items: [
    {
      id: "p1",
      name: "Phone",
      description: "128 GB",
      url: "/p/1",
      quantity: 1,
      price: 40000,
      tax: 8400,
    },
  ],
});
const input = {
  cart,
  billing: address,
  shipping: { address, method: { id: "standard", name: "Standard", price: 0 } },
  customer: { id: 7, email: "ana@example.com" },
};

describe("buildPurchaseData", () => {
  it("produces the contract shape", () => {
    const data = buildPurchaseData(input);
    expect(data).toEqual({
      purchase: {
        cart,
        billing: address,
        shipping: { address, method: { id: "standard", name: "Standard", price: 0 } },
        customer: { id: "7", email: "ana@example.com" },
      },
    });
    expect(purchaseDataSchema.parse(data)).toEqual(data);
  });

  it("answers purchase: null for an empty cart or no cart", () => {
    expect(buildPurchaseData(null)).toEqual({ purchase: null });
    expect(buildPurchaseData({ ...input, cart: null })).toEqual({ purchase: null });
    expect(
      buildPurchaseData({ ...input, cart: { ...cart, items: [], price: 0, tax: 0, total: 0 } }),
    ).toEqual({
      purchase: null,
    });
  });

  it("refuses amounts that are not integer cents and addresses missing a field", () => {
    expect(() =>
      buildPurchaseData({
        ...input,
        shipping: { address, method: { id: "x", name: "X", price: 4.99 } },
      }),
    ).toThrow();
    const { city: _city, ...noCity } = address;
    // @ts-expect-error deliberately incomplete
    expect(() => buildPurchaseData({ ...input, billing: noCity })).toThrow();
  });
});
