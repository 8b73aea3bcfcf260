import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildCartView, type CartRow } from "@/lib/shop/cart-view";
import { contractCartOf } from "./contract-cart";

function product(slug: string, eur: [number, number], gbp: [number, number]) {
  return {
    id: `p-${slug}`,
    slug,
    name: slug.toUpperCase(),
    description: `About ${slug}`,
    image: `/products/${slug}.svg`,
    prices: [
      { currency: "EUR", price: eur[0], tax: eur[1] },
      { currency: "GBP", price: gbp[0], tax: gbp[1] },
    ],
  };
}

const row: CartRow = {
  id: "cart-1",
  items: [
    { id: "i1", quantity: 2, product: product("phone", [50000, 10500], [43000, 8600]) },
    { id: "i2", quantity: 1, product: product("buds", [9900, 2079], [8500, 1700]) },
  ],
};

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
