import { describe, expect, it } from "vitest";
import { CATEGORIES, PRODUCTS, splitListPrice, TAX_RATE } from "./catalog-data";

describe("seed catalog", () => {
  it("splits every list price into integer price and tax that add up exactly", () => {
    for (const product of PRODUCTS) {
      for (const currency of ["EUR", "GBP"] as const) {
        const { price, tax } = splitListPrice(product.list[currency], TAX_RATE[currency]);
        expect(Number.isInteger(price) && Number.isInteger(tax)).toBe(true);
        expect(price + tax).toBe(product.list[currency]);
      }
    }
  });

  it("has unique slugs in known categories", () => {
    expect(new Set(PRODUCTS.map((p) => p.slug)).size).toBe(PRODUCTS.length);
    const slugs = CATEGORIES.map((c) => c.slug) as string[];
    for (const p of PRODUCTS) expect(slugs).toContain(p.category);
  });
});
