import { describe, expect, it } from "vitest";
import { product, CART_ROW as row } from "@/test-support/cart-rows";
import { buildCartView, type CartRow } from "./cart-view";

describe("cart view", () => {
  it("prices each line in the cart currency", () => {
    const view = buildCartView(row, "EUR");
    expect(view.lines[0]).toMatchObject({ price: 50000, quantity: 2, tax: 21000, total: 121000 });
    expect(view.amounts).toEqual({ price: 109900, tax: 23079, discount: 0, total: 132979 });
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
});
