// All shop arithmetic, in integer cents (contract: "All monetary values are integers in minor
// currency units"). Nothing else in the shop adds or multiplies amounts.

export const CURRENCIES = ["EUR", "GBP"] as const;
export type Currency = (typeof CURRENCIES)[number];

export function isCurrency(value: unknown): value is Currency {
  return typeof value === "string" && (CURRENCIES as readonly string[]).includes(value);
}

/** Throws on anything that is not a safe integer: a decimal amount is a bug, never rounded. */
export function assertCents(value: number, what = "amount"): number {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be an integer in cents`);
  return value;
}

export function sumCents(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += assertCents(value);
  return assertCents(total, "sum");
}

export function multiplyCents(cents: number, quantity: number): number {
  assertCents(cents);
  if (!Number.isSafeInteger(quantity) || quantity < 0) {
    throw new RangeError("quantity must be a non-negative integer");
  }
  return assertCents(cents * quantity, "product");
}

export interface LineInput {
  /** unit price before tax */
  price: number;
  /** unit tax */
  unitTax: number;
  quantity: number;
}

export interface LineAmounts {
  price: number;
  quantity: number;
  /** tax for the whole line (contract Cart item: "tax for this item") */
  tax: number;
  /** price * quantity + tax (contract Cart item) */
  total: number;
}

export function lineAmounts({ price, unitTax, quantity }: LineInput): LineAmounts {
  const tax = multiplyCents(unitTax, quantity);
  return { price, quantity, tax, total: sumCents([multiplyCents(price, quantity), tax]) };
}

export interface CartAmounts {
  price: number;
  tax: number;
  /** the cart-level discounts (promotion codes) summed */
  discountTotal: number;
  /** price + tax − discountTotal (delivery not included) */
  total: number;
}

/** Contract Cart: price = sum(price*quantity), tax = sum(item tax), total = price + tax - discounts. */
export function cartAmounts(
  lines: readonly LineAmounts[],
  discounts: readonly { total: number }[] = [],
): CartAmounts {
  const price = sumCents(lines.map((line) => multiplyCents(line.price, line.quantity)));
  const tax = sumCents(lines.map((line) => line.tax));
  const discountTotal = sumCents(discounts.map((d) => d.total));
  return { price, tax, discountTotal, total: sumCents([price, tax, -discountTotal]) };
}

/**
 * What an order owes: items, tax and delivery, less the cart-level discounts (promotion codes),
 * less the trade-in discount. The one formula: before the trade-in it is the contract Cart's
 * `total` (price + tax − sum(discounts.total), delivery a line of the Cart), which the service
 * charges (docs/decisions/discounts.md).
 */
export function orderTotal(order: {
  price: number;
  tax: number;
  shippingPrice: number;
  discountTotal: number;
  tradeInDiscount: number;
}): number {
  return sumCents([
    order.price,
    order.tax,
    order.shippingPrice,
    -order.discountTotal,
    -order.tradeInDiscount,
  ]);
}

/**
 * `percent` % of `cents`, floored to the cent: the one rounding of a percentage discount (per
 * cart, on the items' price and tax; docs/decisions/discounts.md). Integers only.
 */
export function percentOf(cents: number, percent: number): number {
  assertCents(cents);
  if (!Number.isSafeInteger(percent) || percent < 0 || percent > 100) {
    throw new RangeError("percent must be a whole number from 0 to 100");
  }
  return Math.floor((cents * percent) / 100);
}

const formatters = new Map<string, Intl.NumberFormat>();

/** 123456, "EUR" -> "€1,234.56". Display only; never parse this back. */
export function formatMoney(cents: number, currency: Currency | string): string {
  assertCents(cents);
  let formatter = formatters.get(currency);
  if (!formatter) {
    formatter = new Intl.NumberFormat(currency === "GBP" ? "en-GB" : "en-IE", {
      style: "currency",
      currency,
    });
    formatters.set(currency, formatter);
  }
  // Division for display only: the amount itself stays in cents.
  return formatter.format(cents / 100);
}

/**
 * What the shopper pays with Service Pay: everything the order owes (items, tax and delivery,
 * less its discounts) less the accepted trade-in, which the service takes off up to that amount (contract: Payment
 * option details › data.valuation). The service's window shows the same number, because the
 * delivery is a line of the Cart it charges (docs/decisions/delivery-in-the-cart.md).
 */
export function toPayWithTradeIn(
  order: { price: number; tax: number; shippingPrice: number; discountTotal: number },
  tradeIn: number,
): number {
  const owed = orderTotal({ ...order, tradeInDiscount: 0 });
  return orderTotal({
    ...order,
    tradeInDiscount: Math.min(assertCents(tradeIn, "trade-in"), owed),
  });
}
