import type { CartRow } from "@/lib/shop/cart-view";

/** A product row priced in EUR and GBP (unit price, unit tax), as the cart loads it. */
export function product(slug: string, eur: [number, number], gbp: [number, number]) {
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

/** Two phones and one pair of buds. */
export const CART_ROW: CartRow = {
  id: "cart-1",
  items: [
    { id: "i1", quantity: 2, product: product("phone", [50000, 10500], [43000, 8600]) },
    { id: "i2", quantity: 1, product: product("buds", [9900, 2079], [8500, 1700]) },
  ],
};
