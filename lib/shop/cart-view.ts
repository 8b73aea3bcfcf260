import { type CartAmounts, type Currency, cartAmounts, lineAmounts } from "./money";

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
  amounts: CartAmounts;
  /** number of units, for the header badge */
  count: number;
}

export interface CartRow {
  id: string;
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

/** Prices a stored cart in the given currency (the cart carries its currency). */
export function buildCartView(cart: CartRow, currency: Currency): CartView {
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
  return {
    id: cart.id,
    currency,
    lines,
    amounts: cartAmounts(lines),
    count: lines.reduce((n, line) => n + line.quantity, 0),
  };
}
