import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildCartView, type CartRow } from "@/lib/shop/cart-view";
import { product, CART_ROW as row } from "@/test-support/cart-rows";
import { contractCartOf } from "./contract-cart";

describe("contract cart of the shop's cart", () => {
  it("returns exactly the contract's Cart fields", () => {
    const cart = contractCartOf(buildCartView(row, "EUR"), "http://localhost:3000/");
    expect(cart).toEqual({
      id: "cart-1",
      currency: "EUR",
      items: [
        {
          id: "p-phone",
          name: "PHONE",
          description: "About phone",
          url: "http://localhost:3000/products/phone",
          quantity: 2,
          price: 50000,
          tax: 21000,
          total: 121000,
        },
        {
          id: "p-buds",
          name: "BUDS",
          description: "About buds",
          url: "http://localhost:3000/products/buds",
          quantity: 1,
          price: 9900,
          tax: 2079,
          total: 11979,
        },
      ],
      price: 109900,
      tax: 23079,
      total: 132979,
    });
    expect("discounts" in cart).toBe(false);
  });
  it("holds the contract's invariants for any cart", () => {
    const item = fc.record({
      quantity: fc.integer({ min: 1, max: 20 }),
      price: fc.integer({ min: 0, max: 1_000_000 }),
      tax: fc.integer({ min: 0, max: 250_000 }),
    });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 8 }), (items) => {
        const cartRow: CartRow = {
          id: "c",
          items: items.map((it, n) => ({
            id: `i${n}`,
            quantity: it.quantity,
            product: product(`p${n}`, [it.price, it.tax], [it.price, it.tax]),
          })),
        };
        const cart = contractCartOf(buildCartView(cartRow, "GBP"), "http://x");
        for (const i of cart.items) expect(i.total).toBe(i.price * i.quantity + i.tax);
        expect(cart.price).toBe(cart.items.reduce((s, i) => s + i.price * i.quantity, 0));
        expect(cart.tax).toBe(cart.items.reduce((s, i) => s + i.tax, 0));
        expect(cart.total).toBe(cart.price + cart.tax);
      }),
    );
  });
});
