// The contract's Cart, Cart item and Discount objects (contract: Resources, Cart / Cart item /
// Discount) are defined once, with their schema, in lib/service/cart.ts; the shop only builds them.
import type { Cart, CartItem, Discount } from "@/lib/service/cart";
import type { CartView } from "./cart-view";
import { cartAmounts } from "./money";

export type ContractCart = Cart;
export type ContractCartItem = CartItem;
export type ContractDiscount = Discount;

/**
 * Pure: the contract Cart for a priced cart. Item urls are absolute product pages under
 * `shopBaseUrl`. `discounts` is omitted when there are none (the field is optional).
 */
export function toContractCart(
  cart: CartView,
  shopBaseUrl: string,
  discounts: readonly ContractDiscount[] = [],
): ContractCart {
  const base = shopBaseUrl.replace(/\/+$/, "");
  const items = cart.lines.map((line) => ({
    id: line.productId,
    name: line.name,
    description: line.description,
    url: `${base}/products/${encodeURIComponent(line.slug)}`,
    quantity: line.quantity,
    price: line.price,
    tax: line.tax,
    total: line.total,
  }));
  const amounts = cartAmounts(items, discounts);
  return {
    id: cart.id,
    currency: cart.currency,
    items,
    price: amounts.price,
    tax: amounts.tax,
    ...(discounts.length > 0 ? { discounts: discounts.map((d) => ({ ...d })) } : {}),
    total: amounts.total,
  };
}
