import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ShopOrderItem } from "./cart.js";
import { buildCart, cartOfLines, cartSchema, centsText, lineTaxFor } from "./cart.js";
import { ServiceInputError } from "./errors.js";

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

describe("centsText", () => {
  it("formats amounts in a currency with one NumberFormat, built once (every applied notification's note has amounts)", () => {
    const Real = Intl.NumberFormat;
    let made = 0;
    Intl.NumberFormat = class extends Real {
      constructor(...args: ConstructorParameters<typeof Real>) {
        super(...args);
        made++;
      }
    } as typeof Real;
    try {
      expect(centsText(42_000, "SEK")).toBe(
        new Real("en-IE", { style: "currency", currency: "SEK" }).format(420),
      );
      expect(centsText(1_999, "SEK")).toMatch(/19\.99/);
      expect(centsText(5, "SEK")).toMatch(/0\.05/);
      expect(made).toBe(1);
      // Not an ISO 4217 code: still readable, never a throw.
      expect(centsText(1_050, "points!")).toBe("10.50 points!");
    } finally {
      Intl.NumberFormat = Real;
    }
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

/** A shop that rounds tax per line: round(unit price × quantity × rate), half up, in cents. */
function perLineTax(price: number, quantity: number, rateBasisPoints: number): number {
  return Math.round((price * quantity * rateBasisPoints) / 10000);
}

const shopLine = fc.record({
  productId: fc.uuid(),
  name: fc.string({ maxLength: 20 }),
  price: fc.integer({ min: 0, max: 2_000_000 }),
  quantity: fc.integer({ min: 1, max: 999 }),
  rate: fc.integer({ min: 0, max: 2700 }), // 0 % to 27 %, in basis points
});

type ShopLine = { productId: string; name: string; price: number; quantity: number; rate: number };

const itemOf = (l: ShopLine): ShopOrderItem => ({
  productId: l.productId,
  name: l.name,
  description: "",
  url: "https://shop.example/p",
  quantity: l.quantity,
  price: l.price,
  tax: perLineTax(l.price, l.quantity, l.rate),
});

const itemsOf = (lines: ShopLine[]): ShopOrderItem[] => lines.map(itemOf);

const delivery = { id: "express", name: "Express", price: 1499, url: "https://shop.example/" };

describe("cartOfLines from any shop's rounding", () => {
  it("builds a valid Cart from per-line rounded tax: the shop's line totals, summed", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(shopLine, { minLength: 1, maxLength: 8, selector: (l) => l.productId }),
        (lines) => {
          const items = itemsOf(lines);
          const cart = cartOfLines({ id: "c", currency: "EUR", items, delivery });
          expect(cartSchema.safeParse(cart).success).toBe(true);
          const shopTotals = items.map((i) => i.price * i.quantity + i.tax);
          expect(cart.items.slice(0, -1).map((i) => i.total)).toEqual(shopTotals);
          expect(cart.items.slice(0, -1).map((i) => i.tax)).toEqual(items.map((i) => i.tax));
          expect(cart.total).toBe(shopTotals.reduce((a, b) => a + b, 0) + delivery.price);
        },
      ),
    );
  });

  it("re-derives a changed line's tax in whole cents, within half a cent of its proportion", () => {
    fc.assert(
      fc.property(shopLine, fc.integer({ min: 0, max: 999 }), (line, quantity) => {
        const item = itemOf(line);
        const cart = cartOfLines(
          { id: "c", currency: "EUR", items: [item], delivery: null },
          { [item.productId]: quantity },
        );
        expect(cartSchema.safeParse(cart).success).toBe(true);
        if (quantity === 0) {
          expect(cart.items).toEqual([]);
          return;
        }
        const tax = cart.items[0]?.tax ?? Number.NaN;
        expect(Number.isSafeInteger(tax)).toBe(true);
        expect(Math.abs(tax - (item.tax * quantity) / item.quantity)).toBeLessThanOrEqual(0.5);
        if (item.tax % item.quantity === 0) expect(tax).toBe((item.tax / item.quantity) * quantity);
      }),
    );
  });

  it("keeps an unchanged line's tax as it is, and rounds a proportion half up", () => {
    expect(lineTaxFor(101, 3, 3)).toBe(101);
    expect(lineTaxFor(100, 4, 2)).toBe(50);
    expect(lineTaxFor(101, 2, 1)).toBe(51); // 50.5 → 51
    expect(lineTaxFor(100, 3, 1)).toBe(33); // 33.3 → 33
  });

  it("refuses, by name, a line the contract cannot carry: not whole cents, negative, no units", () => {
    const base = itemOf({ productId: "p-1", name: "x", price: 1000, quantity: 3, rate: 2300 });
    const notWhole = fc.double({ min: 0.01, max: 1e6, noInteger: true, noNaN: true });
    fc.assert(
      fc.property(
        fc.oneof(
          notWhole.map((price): ShopOrderItem => ({ ...base, price })),
          fc.integer({ min: -1e6, max: -1 }).map((tax): ShopOrderItem => ({ ...base, tax })),
          notWhole.map((tax): ShopOrderItem => ({ ...base, tax })),
          fc.integer({ min: -5, max: 0 }).map((quantity): ShopOrderItem => ({ ...base, quantity })),
          fc.constant<ShopOrderItem>({ ...base, price: Number.MAX_SAFE_INTEGER }),
        ),
        (broken) => {
          const items = [broken];
          expect(() => cartOfLines({ id: "c", currency: "EUR", items, delivery })).toThrow(
            ServiceInputError,
          );
        },
      ),
    );
  });
});
