import { describe, expect, it } from "vitest";
import { product, CART_ROW as row } from "@/test-support/cart-rows";
import { buildCartView, type CartRow } from "./cart-view";

describe("cart view", () => {
  it("prices each line in the cart currency", () => {
    const view = buildCartView(row, "EUR");
    expect(view.lines[0]).toMatchObject({ price: 50000, quantity: 2, tax: 21000, total: 121000 });
    expect(view.amounts).toEqual({ price: 109900, tax: 23079, discountTotal: 0, total: 132979 });
    expect(view.count).toBe(3);
    expect(buildCartView(row, "GBP").amounts.total).toBe(43000 * 2 + 8600 * 2 + 8500 + 1700);
  });

  it("refuses a product without a price in the cart currency", () => {
    const broken: CartRow = {
      id: "c",
      items: [{ id: "i", quantity: 1, product: { ...product("x", [1, 0], [1, 0]), prices: [] } }],
    };
    expect(() => buildCartView(broken, "EUR")).toThrow(/no EUR price/);
  });

  it("takes the applied promotion codes off, each judged in the cart's currency", () => {
    const save10 = {
      code: "SAVE10",
      name: "10 % off",
      kind: "percent",
      percent: 10,
      amount: null,
      currency: null,
      minimum: null,
      expiresAt: null,
    };
    const tenOff = {
      ...save10,
      code: "TENOFF",
      kind: "amount",
      percent: null,
      amount: 1000,
      currency: "EUR",
    };
    const promotions = [
      { code: "SAVE10", rule: save10 },
      { code: "TENOFF", rule: tenOff },
    ];
    const view = buildCartView({ ...row, promotions }, "EUR");
    expect(view.discounts.map((d) => [d.id, d.total])).toEqual([
      ["promo:SAVE10", 13297],
      ["promo:TENOFF", 1000],
    ]);
    expect(view.amounts).toEqual({
      price: 109900,
      tax: 23079,
      discountTotal: 14297,
      total: 132979 - 14297,
    });
    // In pounds the euro amount takes nothing off, and says why.
    const gbp = buildCartView({ ...row, promotions }, "GBP");
    expect(gbp.discounts.map((d) => d.code)).toEqual(["SAVE10"]);
    expect(gbp.idlePromotions).toEqual([
      { code: "TENOFF", message: "TENOFF is for carts in EUR; your cart is in GBP." },
    ]);
  });
});
