import type { CartView } from "./cart-view";
import { cartAmounts } from "./money";

// The contract's Cart, Cart item and Discount objects, field for field (contract: Resources,
// Cart / Cart item / Discount). Amounts are integer cents.

export interface ContractDiscount {
  id: string;
  name: string;
  total: number;
}

export interface ContractCartItem {
  id: string;
  name: string;
  description: string;
  url: string;
  quantity: number;
  price: number;
  tax: number;
  total: number;
}

export interface ContractCart {
  id: string;
  currency: string;
  items: ContractCartItem[];
  price: number;
  tax: number;
  discounts?: ContractDiscount[];
  total: number;
}

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
