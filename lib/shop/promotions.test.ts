import { describe, expect, it } from "vitest";
import {
  cartDiscounts,
  judgePromotion,
  MAX_PROMOTION_CODES,
  type PromotionRule,
  promotionCodeSchema,
} from "./promotions";

const now = new Date("2026-11-26T12:00:00Z");
const rule = (over: Partial<PromotionRule>): PromotionRule => ({
  code: "SAVE10",
  name: "10 % off your items",
  kind: "percent",
  percent: 10,
  amount: null,
  currency: null,
  minimum: null,
  expiresAt: null,
  ...over,
});
const SAVE10 = rule({});
const TENOFF = rule({
  code: "TENOFF",
  name: "€10 off",
  kind: "amount",
  percent: null,
  amount: 1000,
  currency: "EUR",
});
const BIG50 = rule({
  code: "BIG50",
  name: "€50 off",
  kind: "amount",
  percent: null,
  amount: 5000,
  currency: "EUR",
  minimum: 50000,
});
const SUMMER24 = rule({
  code: "SUMMER24",
  percent: 20,
  expiresAt: new Date("2024-09-01T00:00:00Z"),
});
const cart = { currency: "EUR" as const, itemsTotal: 79_900 };

describe("the promotion code a shopper types", () => {
  it("is letters, digits and dashes, trimmed and upper-cased", () => {
    expect(promotionCodeSchema.parse("  save10 ")).toBe("SAVE10");
    for (const bad of ["", "ab", "SAVE 10", "SAVE10;DROP", "x".repeat(33), "ŠAVE10"]) {
      expect(promotionCodeSchema.safeParse(bad).success, bad).toBe(false);
    }
  });
});

describe("judgePromotion", () => {
  it("takes a percentage of the items' price and tax, floored to the cent", () => {
    const judged = judgePromotion("save10", SAVE10, { ...cart, itemsTotal: 12_345 }, now);
    expect(judged).toEqual({
      ok: true,
      discount: { id: "promo:SAVE10", code: "SAVE10", name: "10 % off your items", total: 1_234 },
    });
  });

  it("takes a fixed amount in its currency", () => {
    expect(judgePromotion("TENOFF", TENOFF, cart, now)).toMatchObject({
      ok: true,
      discount: { total: 1000 },
    });
  });

  it("refuses an unknown code", () => {
    expect(judgePromotion("NOPE", null, cart, now)).toEqual({
      ok: false,
      reason: "unknown",
      message: "NOPE is not a promotion code of this shop.",
    });
  });

  it("refuses an expired code, from the moment it expires", () => {
    expect(judgePromotion("SUMMER24", SUMMER24, cart, now)).toMatchObject({
      ok: false,
      reason: "expired",
      message: "SUMMER24 has expired.",
    });
    const at = new Date("2024-09-01T00:00:00Z");
    expect(judgePromotion("SUMMER24", SUMMER24, cart, at)).toMatchObject({ reason: "expired" });
    expect(judgePromotion("SUMMER24", SUMMER24, cart, new Date(at.getTime() - 1)).ok).toBe(true);
  });

  it("refuses a fixed amount in another currency", () => {
    expect(
      judgePromotion("TENOFF", TENOFF, { currency: "GBP", itemsTotal: 69_900 }, now),
    ).toMatchObject({
      ok: false,
      reason: "wrong_currency",
      message: "TENOFF is for carts in EUR; your cart is in GBP.",
    });
  });

  it("refuses a code below its minimum, one cent short", () => {
    expect(judgePromotion("BIG50", BIG50, { ...cart, itemsTotal: 49_999 }, now)).toMatchObject({
      ok: false,
      reason: "below_minimum",
      message: "BIG50 needs items worth €500.00 or more; your items come to €499.99.",
    });
    expect(judgePromotion("BIG50", BIG50, { ...cart, itemsTotal: 50_000 }, now).ok).toBe(true);
  });

  it("refuses, never clamps, a discount larger than the items cost", () => {
    expect(judgePromotion("TENOFF", TENOFF, { ...cart, itemsTotal: 999 }, now)).toMatchObject({
      ok: false,
      reason: "too_large",
    });
    // With another code already taking 75.00 off 80.00 of items, 10.00 more is too much.
    expect(
      judgePromotion("TENOFF", TENOFF, { ...cart, itemsTotal: 8_000 }, now, 7_500),
    ).toMatchObject({
      reason: "too_large",
    });
    expect(judgePromotion("TENOFF", TENOFF, { ...cart, itemsTotal: 1_000 }, now).ok).toBe(true);
  });
});

describe("cartDiscounts", () => {
  it("judges every applied code against the cart as it is now", () => {
    const { discounts, idle } = cartDiscounts(
      [
        { code: "SAVE10", rule: SAVE10 },
        { code: "BIG50", rule: BIG50 },
        { code: "SUMMER24", rule: SUMMER24 },
      ],
      cart,
      now,
    );
    expect(discounts.map((d) => [d.code, d.total])).toEqual([
      ["SAVE10", 7_990],
      ["BIG50", 5_000],
    ]);
    expect(idle).toEqual([{ code: "SUMMER24", message: "SUMMER24 has expired." }]);
  });

  it("keeps a code that no longer applies listed, taking nothing off", () => {
    const { discounts, idle } = cartDiscounts(
      [{ code: "BIG50", rule: BIG50 }],
      { ...cart, itemsTotal: 9_900 },
      now,
    );
    expect(discounts).toEqual([]);
    expect(idle[0]?.message).toContain("needs items worth €500.00");
  });

  it("judges at most MAX_PROMOTION_CODES codes", () => {
    const many = Array.from({ length: MAX_PROMOTION_CODES + 2 }, (_, i) => ({
      code: `C${i}XX`,
      rule: rule({ code: `C${i}XX`, percent: 1 }),
    }));
    expect(cartDiscounts(many, cart, now).discounts).toHaveLength(MAX_PROMOTION_CODES);
  });
});
