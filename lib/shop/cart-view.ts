import { type CartAmounts, type Currency, cartAmounts, lineAmounts, sumCents } from "./money";
import {
  type CartDiscount,
  cartDiscounts,
  type IdlePromotion,
  type PromotionRule,
} from "./promotions";

export interface CartLine {
  /** cart item id (for change/remove forms) */
  id: string;
  productId: string;
  slug: string;
  name: string;
  description: string;
  image: string;
  quantity: number;
  /** unit price before tax */
  price: number;
  /** line tax */
  tax: number;
  /** price * quantity + tax */
  total: number;
}

export interface CartView {
  id: string;
  currency: Currency;
  lines: CartLine[];
  /** the promotion codes' discounts, as the cart is now (contract: Cart › discounts) */
  discounts: CartDiscount[];
  /** codes applied to the cart that take nothing off now, with why */
  idlePromotions: IdlePromotion[];
  amounts: CartAmounts;
  /** number of units, for the header badge */
  count: number;
}

export interface CartRow {
  id: string;
  /** the codes applied to the cart, oldest first, with their rules (null: no such code now) */
  promotions?: { code: string; rule: PromotionRule | null }[];
  items: {
    id: string;
    quantity: number;
    product: {
      id: string;
      slug: string;
      name: string;
      description: string;
      image: string;
      prices: { currency: string; price: number; tax: number }[];
    };
  }[];
}

/** Prices a stored cart in the given currency (the cart carries its currency); its promotion
 *  codes are judged at `now`. */
export function buildCartView(cart: CartRow, currency: Currency, now = new Date()): CartView {
  const lines = cart.items.map((item) => {
    const unit = item.product.prices.find((p) => p.currency === currency);
    if (!unit) throw new Error(`Product ${item.product.slug} has no ${currency} price`);
    const amounts = lineAmounts({ price: unit.price, unitTax: unit.tax, quantity: item.quantity });
    return {
      id: item.id,
      productId: item.product.id,
      slug: item.product.slug,
      name: item.product.name,
      description: item.product.description,
      image: item.product.image,
      quantity: item.quantity,
      price: amounts.price,
      tax: amounts.tax,
      total: amounts.total,
    };
  });
  const itemsTotal = sumCents(lines.map((line) => line.total));
  const { discounts, idle } =
    lines.length > 0
      ? cartDiscounts(cart.promotions ?? [], { currency, itemsTotal }, now)
      : { discounts: [], idle: [] };
  return {
    id: cart.id,
    currency,
    lines,
    discounts,
    idlePromotions: idle,
    amounts: cartAmounts(lines, discounts),
    count: lines.reduce((n, line) => n + line.quantity, 0),
  };
}
