import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  assertCents,
  cartAmounts,
  formatMoney,
  lineAmounts,
  multiplyCents,
  orderTotal,
  percentOf,
  sumCents,
  toPayWithTradeIn,
} from "./money";

const cents = fc.integer({ min: 0, max: 10_000_000 });
const line = fc.record({
  price: cents,
  unitTax: fc.integer({ min: 0, max: 2_000_000 }),
  quantity: fc.integer({ min: 1, max: 99 }),
});

describe("money", () => {
  it("rejects decimals and unsafe numbers", () => {
    expect(() => assertCents(1.5)).toThrow(RangeError);
    expect(() => assertCents(Number.NaN)).toThrow(RangeError);
    expect(() => sumCents([1, 0.1])).toThrow(RangeError);
    expect(() => multiplyCents(100, 1.5)).toThrow(RangeError);
    expect(() => multiplyCents(100, -1)).toThrow(RangeError);
  });

  it("item total is price * quantity + tax", () => {
    fc.assert(
      fc.property(line, (input) => {
        const amounts = lineAmounts(input);
        expect(amounts.tax).toBe(input.unitTax * input.quantity);
        expect(amounts.total).toBe(input.price * input.quantity + amounts.tax);
        expect(Number.isInteger(amounts.total)).toBe(true);
      }),
    );
  });

  it("cart amounts follow the contract and are integers", () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 20 }),
        fc.array(fc.record({ total: cents }), { maxLength: 3 }),
        (inputs, discounts) => {
          const lines = inputs.map(lineAmounts);
          const cart = cartAmounts(lines, discounts);
          expect(cart.price).toBe(lines.reduce((s, l) => s + l.price * l.quantity, 0));
          expect(cart.tax).toBe(lines.reduce((s, l) => s + l.tax, 0));
          expect(cart.total).toBe(
            cart.price + cart.tax - discounts.reduce((s, d) => s + d.total, 0),
          );
          // Without discounts the cart total is the sum of the item totals.
          expect(cartAmounts(lines).total).toBe(lines.reduce((s, l) => s + l.total, 0));
          for (const value of Object.values(cart)) expect(Number.isInteger(value)).toBe(true);
        },
      ),
    );
  });

  it("sum is independent of order", () => {
    fc.assert(
      fc.property(fc.array(cents), (values) => {
        expect(sumCents([...values].reverse())).toBe(sumCents(values));
      }),
    );
  });

  it("formats for display in each currency", () => {
    expect(formatMoney(123456, "EUR")).toBe("€1,234.56");
    expect(formatMoney(5, "GBP")).toBe("£0.05");
  });

  it("takes an accepted trade-in off everything the order owes, delivery included, never below zero", () => {
    const aurora = { price: 66033, tax: 13867, shippingPrice: 499, discountTotal: 0 }; // €799.00 + €4.99
    expect(toPayWithTradeIn(aurora, 42000)).toBe(38399);
    expect(toPayWithTradeIn({ ...aurora, shippingPrice: 1499 }, 42000)).toBe(39399);
    expect(
      toPayWithTradeIn({ price: 19900, tax: 0, shippingPrice: 0, discountTotal: 0 }, 42000),
    ).toBe(0);
    expect(() => toPayWithTradeIn(aurora, 420.5)).toThrow(RangeError);
    expect(() => toPayWithTradeIn({ ...aurora, shippingPrice: 4.99 }, 42000)).toThrow(RangeError);
  });

  it("is the one formula's total less the trade-in, for any order", () => {
    fc.assert(
      fc.property(cents, cents, cents, cents, (price, tax, shippingPrice, tradeIn) => {
        const order = { price, tax, shippingPrice, discountTotal: 0 };
        const owed = orderTotal({ ...order, tradeInDiscount: 0 });
        expect(toPayWithTradeIn(order, tradeIn)).toBe(Math.max(0, owed - tradeIn));
      }),
    );
  });

  it("takes the cart's discounts off before the trade-in, in one formula", () => {
    const order = { price: 66033, tax: 13867, shippingPrice: 499, discountTotal: 7990 };
    expect(orderTotal({ ...order, tradeInDiscount: 0 })).toBe(66033 + 13867 + 499 - 7990);
    expect(orderTotal({ ...order, tradeInDiscount: 42000 })).toBe(
      66033 + 13867 + 499 - 7990 - 42000,
    );
    expect(toPayWithTradeIn(order, 42000)).toBe(66033 + 13867 + 499 - 7990 - 42000);
    // The trade-in is capped at what is left once the discounts are off.
    expect(toPayWithTradeIn(order, 1_000_000)).toBe(0);
    expect(() => orderTotal({ ...order, discountTotal: 10.5, tradeInDiscount: 0 })).toThrow(
      RangeError,
    );
  });

  it("the cart's total is price + tax − sum(discounts.total) (contract: Cart)", () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 5 }),
        fc.array(cents, { maxLength: 3 }),
        (lines, totals) => {
          const amounts = cartAmounts(
            lines.map(lineAmounts),
            totals.map((total) => ({ total })),
          );
          expect(amounts.discountTotal).toBe(sumCents(totals));
          expect(amounts.total).toBe(amounts.price + amounts.tax - sumCents(totals));
        },
      ),
    );
  });

  it("rounds a percentage down to the cent, once per cart", () => {
    expect(percentOf(79_900, 10)).toBe(7_990);
    expect(percentOf(12_345, 10)).toBe(1_234);
    expect(percentOf(99, 33)).toBe(32);
    expect(percentOf(0, 10)).toBe(0);
    expect(() => percentOf(100, 10.5)).toThrow(RangeError);
    expect(() => percentOf(100, 101)).toThrow(RangeError);
    fc.assert(
      fc.property(cents, fc.integer({ min: 0, max: 100 }), (amount, percent) => {
        const off = percentOf(amount, percent);
        expect(Number.isSafeInteger(off)).toBe(true);
        expect(off * 100).toBeLessThanOrEqual(amount * percent);
        expect((off + 1) * 100).toBeGreaterThan(amount * percent);
      }),
    );
  });
});
