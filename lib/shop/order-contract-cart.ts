import type { ContractCart, ContractCartItem } from "./contract-cart";
import { cartAmounts, lineAmounts } from "./money";

// The contract Cart of a placed order, rebuilt from its item snapshot (contract: Resources ›
// Cart, Cart item). register-purchase sends it (Base64) and the order update `cart_update` sends
// an edited one; the cart id is the order's cartId, the id the service knows the order by.

export interface OrderForCart {
  cartId: string;
  currency: string;
  items: readonly {
    productId: string;
    name: string;
    description: string;
    url: string;
    quantity: number;
    /** unit price before tax */
    price: number;
    /** the line's tax */
    tax: number;
  }[];
}

/**
 * Pure. `quantities` (product id → new quantity; 0 drops the line) gives the edited cart of a
 * `cart_update`; the line tax is re-derived from the unit tax, which the snapshot keeps exactly
 * as tax / quantity (README: Cart item tax = unit tax × quantity).
 */
export function orderContractCart(
  order: OrderForCart,
  quantities?: Readonly<Record<string, number>>,
): ContractCart {
  const items: ContractCartItem[] = [];
  for (const item of order.items) {
    const quantity = quantities?.[item.productId] ?? item.quantity;
    if (!Number.isSafeInteger(quantity) || quantity < 0) {
      throw new RangeError(`quantity of ${item.productId} must be a whole number from 0`);
    }
    if (quantity === 0) continue;
    const unitTax = item.tax / item.quantity;
    if (!Number.isSafeInteger(unitTax)) {
      throw new RangeError(`tax of ${item.productId} is not a whole number of cents per unit`);
    }
    const line = lineAmounts({ price: item.price, unitTax, quantity });
    items.push({
      id: item.productId,
      name: item.name,
      description: item.description,
      url: item.url,
      quantity,
      price: item.price,
      tax: line.tax,
      total: line.total,
    });
  }
  const amounts = cartAmounts(items, []);
  return {
    id: order.cartId,
    currency: order.currency,
    items,
    price: amounts.price,
    tax: amounts.tax,
    total: amounts.total,
  };
}
