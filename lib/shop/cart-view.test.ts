import { describe, expect, it } from "vitest";
import { buildCartView, type CartRow } from "./cart-view";

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
