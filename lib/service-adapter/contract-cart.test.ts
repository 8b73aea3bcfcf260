import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildCartView, type CartRow } from "@/lib/shop/cart-view";
import { CURRENCIES, orderTotal } from "@/lib/shop/money";
import { SHIPPING_METHOD_IDS, shippingMethod, shippingPrice } from "@/lib/shop/shipping";
import { product, CART_ROW as row } from "@/test-support/cart-rows";
import { contractCartOf, deliveryChargeOf } from "./contract-cart";

describe("contract cart of the shop's cart", () => {
  it("returns exactly the contract's Cart fields", () => {
    const cart = contractCartOf(buildCartView(row, "EUR"), "http://localhost:3000/", null);
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
        const cart = contractCartOf(buildCartView(cartRow, "GBP"), "http://x", null);
        for (const i of cart.items) expect(i.total).toBe(i.price * i.quantity + i.tax);
        expect(cart.price).toBe(cart.items.reduce((s, i) => s + i.price * i.quantity, 0));
        expect(cart.tax).toBe(cart.items.reduce((s, i) => s + i.tax, 0));
        expect(cart.total).toBe(cart.price + cart.tax);
      }),
    );
  });

  it("carries the delivery as a line, so the Cart's total is what the shop's order owes", () => {
    const item = fc.record({
      quantity: fc.integer({ min: 1, max: 20 }),
      price: fc.integer({ min: 0, max: 1_000_000 }),
      tax: fc.integer({ min: 0, max: 250_000 }),
    });
    fc.assert(
      fc.property(
        fc.array(item, { minLength: 1, maxLength: 8 }),
        fc.constantFrom(...CURRENCIES),
        fc.constantFrom(...SHIPPING_METHOD_IDS),
        // Promotion codes: a percentage, an amount (in one currency), with a minimum or not.
        fc.array(
          fc.record({
            percent: fc.option(fc.integer({ min: 1, max: 100 }), { nil: null }),
            amount: fc.integer({ min: 1, max: 500_000 }),
            currency: fc.constantFrom(...CURRENCIES),
            minimum: fc.option(fc.integer({ min: 0, max: 2_000_000 }), { nil: null }),
          }),
          { maxLength: 3 },
        ),
        (items, currency, method, codes) => {
          const promotions = codes.map((c, n) => ({
            code: `CODE${n}`,
            rule: {
              code: `CODE${n}`,
              name: `code ${n}`,
              kind: c.percent === null ? "amount" : "percent",
              percent: c.percent,
              amount: c.percent === null ? c.amount : null,
              currency: c.percent === null ? c.currency : null,
              minimum: c.percent === null ? c.minimum : null,
              expiresAt: null,
            },
          }));
          const view = buildCartView(
            {
              id: "c",
              items: items.map((it, n) => ({
                id: `i${n}`,
                quantity: it.quantity,
                product: product(`p${n}`, [it.price, it.tax], [it.price, it.tax]),
              })),
              promotions,
            },
            currency,
          );
          const delivery = deliveryChargeOf(method, currency, "http://shop.test");
          const cart = contractCartOf(view, "http://shop.test", delivery);
          // The one formula of the shop (lib/shop/money.ts) and the contract's Cart agree.
          const owed = orderTotal({
            ...view.amounts,
            shippingPrice: shippingPrice(method, currency),
            tradeInDiscount: 0,
          });
          expect(cart.total).toBe(owed);
          expect(cart.tax).toBe(view.amounts.tax);
          // Contract, Cart: total = price + tax − sum(discounts.total), never below zero.
          const off = (cart.discounts ?? []).reduce((sum, d) => sum + d.total, 0);
          expect(off).toBe(view.amounts.discountTotal);
          expect(cart.total).toBe(cart.price + cart.tax - off);
          expect(cart.total).toBeGreaterThanOrEqual(0);
          expect(cart.discounts ?? []).toEqual(
            view.discounts.map(({ id, name, total }) => ({ id, name, total })),
          );
          expect(cart.items.at(-1)).toEqual({
            id: `delivery:${method}`,
            name: shippingMethod(method).name,
            description: "Delivery",
            url: "http://shop.test/",
            quantity: 1,
            price: shippingPrice(method, currency),
            tax: 0,
            total: shippingPrice(method, currency),
          });
        },
      ),
    );
  });
});
