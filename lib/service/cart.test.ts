import { describe, expect, it } from "vitest";
import { buildCart, cartSchema } from "./cart";

const line = {
  id: "sku-1",
  name: "Phone case",
  description: "Blue",
  url: "http://localhost:3000/products/case",
  quantity: 2,
  price: 1500,
  tax: 630,
};

describe("buildCart", () => {
  it("computes item and cart totals by the contract's formulas", () => {
    const cart = buildCart({
      id: "cart-1",
      currency: "EUR",
      items: [line, { ...line, id: "sku-2", quantity: 1, price: 10000, tax: 2100 }],
      discounts: [{ id: "d1", name: "Welcome", total: 500 }],
    });
    expect(cart.items.map((i) => i.total)).toEqual([3630, 12100]);
    expect(cart).toMatchObject({ price: 13000, tax: 2730, total: 15230 });
  });

  it("omits discounts when there are none", () => {
    expect(buildCart({ id: "c", currency: "EUR", items: [line] })).not.toHaveProperty("discounts");
  });

  it("rejects a decimal amount", () => {
    expect(() =>
      buildCart({ id: "c", currency: "EUR", items: [{ ...line, price: 15.99 }] }),
    ).toThrow();
  });
});

describe("cartSchema", () => {
  it("rejects totals that disagree with the formulas", () => {
    const cart = buildCart({ id: "c", currency: "EUR", items: [line] });
    const result = cartSchema.safeParse({ ...cart, total: cart.total + 1 });
    expect(result.success).toBe(false);
    const badItem = { ...cart, items: [{ ...cart.items[0], total: 1 }] };
    expect(cartSchema.safeParse(badItem).success).toBe(false);
  });
});
