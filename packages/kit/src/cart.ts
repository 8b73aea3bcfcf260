import { z } from "zod";
import { ServiceInputError } from "./errors.js";

/**
 * The contract's Cart, Cart item, Discount and Address (contract: Resources), shared by purchase
 * data and register-purchase. Money is integer cents everywhere (contract: What the service does
 * 5, Limits); a decimal fails validation here, before the service would answer 400.
 */

export const cents = z.int().nonnegative();

/**
 * An amount in cents as the integration's own sentences show it to people (order history,
 * reconciliation report): 42000, "EUR" → "€420.00". Display only; never parsed back.
 */
export function centsText(amount: number, currency: string): string {
  try {
    return currencyFormat(currency).format(amount / 100);
  } catch {
    // Not an ISO 4217 code (a service sent something odd): still readable, never a throw.
    return `${(amount / 100).toFixed(2)} ${currency}`;
  }
}

// Building an Intl.NumberFormat costs far more than formatting with one, and every applied
// payment notification writes amounts into its history note (docs/decisions/webhook-storage.md),
// so one per currency is kept; a code is a few letters, the few a shop sees are kept.
const formats = new Map<string, Intl.NumberFormat>();
function currencyFormat(currency: string): Intl.NumberFormat {
  let format = formats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat("en-IE", { style: "currency", currency });
    if (formats.size < 64) formats.set(currency, format);
  }
  return format;
}

/**
 * A cart-level discount (contract: Resources › Discount: id, name, total in integer cents),
 * e.g. a promotion code. Not the trade-in: the service takes that off itself (Events ›
 * Webhook, `trade_in_discount`). A decimal, a negative amount or an empty id is refused.
 */
export const discountSchema = z.object({
  /** The discount's id in the shop (a promotion code's, say); never empty. */
  id: z.string().min(1).max(200),
  /** Its name as the shopper sees it. */
  name: z.string().max(200),
  /** What it takes off the cart, integer cents. */
  total: cents,
});

const cartItemSchema = z.object({
  /** The line's id in the shop (contract: Resources › Cart item). */
  id: z.string(),
  /** The product's name as the shopper sees it. */
  name: z.string(),
  /** The product's description. */
  description: z.string(),
  /** The product's page in the shop (absolute URL). */
  url: z.string(),
  /** How many units; a positive integer. */
  quantity: z.int().positive(),
  /** Unit price before tax and discounts, integer cents. */
  price: cents,
  /** Tax for this line, integer cents. */
  tax: cents,
  /** (price * quantity) + tax, integer cents. */
  total: cents,
});

/** The contract's Cart (Resources › Cart), every total checked by its formula: a cart the
 *  service would price differently from the shop is refused. */
export const cartSchema = z
  .object({
    /** The cart's id in the shop (contract: Resources › Cart); never empty. */
    id: z.string().min(1),
    /** The cart's currency code (ISO 4217, e.g. `EUR`). */
    currency: z.string().min(1),
    /** Its lines (contract: Cart item), each total checked against its price, quantity and tax. */
    items: z.array(cartItemSchema),
    /** Subtotal of all items, before tax and discounts, integer cents. */
    price: cents,
    /** Total tax of all items, integer cents. */
    tax: cents,
    /** Cart-level discounts (never the trade-in); absent when there are none. */
    discounts: z.array(discountSchema).optional(),
    /** price + tax - sum(discounts.total), integer cents; never negative. */
    total: z.int(),
  })
  .superRefine((cart, ctx) => {
    // The contract defines every total by a formula; a cart that breaks one would be priced
    // differently by the service than by the shop, so it is refused here.
    cart.items.forEach((item, index) => {
      if (item.total !== item.price * item.quantity + item.tax) {
        ctx.addIssue({
          code: "custom",
          path: ["items", index, "total"],
          message: "item total must be (price * quantity) + tax",
        });
      }
    });
    const expected = cartTotals(cart.items, cart.discounts ?? []);
    // Contract, Cart: total = price + tax − sum(discounts.total). A discount larger than what
    // the cart owes would make it negative: refused, never clamped (docs/decisions/discounts.md).
    if (expected.total < 0) {
      ctx.addIssue({
        code: "custom",
        path: ["discounts"],
        message: `discounts ${expected.price + expected.tax - expected.total} exceed the cart's price and tax ${expected.price + expected.tax}`,
      });
    }
    for (const key of ["price", "tax", "total"] as const) {
      if (cart[key] !== expected[key]) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `cart ${key} must be ${expected[key]}`,
        });
      }
    }
  });

/** The contract's Address (Resources › Address): eight strings, billing or shipping party. */
export const addressSchema = z.object({
  /** The party's given (first) name. */
  given_name: z.string(),
  /** The party's family (last) name. */
  family_name: z.string(),
  /** The party's phone number, as entered. */
  phone: z.string(),
  /** The street address (street, number, and any further line). */
  address: z.string(),
  /** The city. */
  city: z.string(),
  /** The state or region; empty where the country has none. */
  state: z.string(),
  /** The country, ISO 3166-1 alpha-2 (e.g. `DE`). */
  country_code: z.string(),
  /** The postal code. */
  postal_code: z.string(),
});

/** The contract's Discount: id, name, total (integer cents). */
export type Discount = z.infer<typeof discountSchema>;
/** The contract's Cart item (amounts in integer cents). */
export type CartItem = z.infer<typeof cartItemSchema>;
/** The contract's Cart (amounts in integer cents), its totals checked. */
export type Cart = z.infer<typeof cartSchema>;
/** The contract's Address: eight strings. */
export type Address = z.infer<typeof addressSchema>;

/** The contract Address's field names (all strings). */
export const ADDRESS_FIELDS = Object.keys(addressSchema.shape) as (keyof Address)[];

/** A cart line as a shop holds it: the contract Cart item's fields without the total. */
export interface CartLineInput {
  /** The line's id (the Cart item's `id`). */
  id: string;
  /** The product's name. */
  name: string;
  /** The product's description. */
  description: string;
  /** The product's page (absolute URL). */
  url: string;
  /** How many units (a positive integer). */
  quantity: number;
  /** Unit price before tax, integer cents. */
  price: number;
  /** The line's tax, integer cents. */
  tax: number;
}

/** Builds a contract Cart from plain lines, computing every total by the contract's formulas. */
export function buildCart(input: {
  id: string;
  currency: string;
  items: CartLineInput[];
  discounts?: Discount[];
}): Cart {
  const items = input.items.map((line) => ({
    ...line,
    total: line.price * line.quantity + line.tax,
  }));
  const totals = cartTotals(items, input.discounts ?? []);
  const cart = {
    id: input.id,
    currency: input.currency,
    items,
    ...totals,
    ...(input.discounts && input.discounts.length > 0 ? { discounts: input.discounts } : {}),
  };
  // Validates the inputs too: a decimal price, a zero quantity or a sum past what an integer
  // holds exactly cannot be said in the contract's Cart; that is refused by name, never sent.
  const parsed = cartSchema.safeParse(cart);
  if (!parsed.success) throw new ServiceInputError("cart", cartProblems(parsed.error));
  return parsed.data;
}

/** The Cart's problems in words (paths and messages; amounts are not secrets, but not needed). */
function cartProblems(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join(".") || "cart"}: ${issue.message}`)
    .join("; ");
}

/** A line of a placed order (a snapshot of the cart at checkout): a contract Cart item's
 *  fields without the total, named by the product's id. */
export type ShopOrderItem = Omit<CartLineInput, "id"> & {
  /** The product's id in the shop (the Cart item's id is made of it). */
  productId: string;
};

/**
 * The order's delivery as the service sees it: a line of the contract Cart, so the Cart's
 * `total` is everything the order owes before the trade-in and the service charges exactly
 * what the shop charges (docs/decisions/delivery-in-the-cart.md). `price` is what the shopper
 * pays for it in cents; a shop that itemises tax on delivery gives it as `tax`.
 */
export interface DeliveryCharge {
  /** The shop's delivery method id. */
  id: string;
  /** Its name as the shopper sees it (the delivery line's name). */
  name: string;
  /** What the shopper pays for it, integer cents. */
  price: number;
  /** Tax on the delivery, in cents (0 when the price is all the shop itemises). */
  tax?: number;
  /** Where the shopper reads about it (the Cart item's `url`). */
  url: string;
}

/** Cart item ids of delivery lines start with this, so they never collide with a product id. */
export const DELIVERY_LINE_PREFIX = "delivery:";

/** The delivery line of a contract Cart (quantity 1). */
export function deliveryLine(delivery: DeliveryCharge): CartLineInput {
  return {
    id: `${DELIVERY_LINE_PREFIX}${delivery.id}`,
    name: delivery.name,
    description: "Delivery",
    url: delivery.url,
    quantity: 1,
    price: delivery.price,
    tax: delivery.tax ?? 0,
  };
}

/**
 * The contract Cart of a shop's cart or placed order, from its lines (unit price, the line's
 * tax) and its delivery, which is a line of its own (deliveryLine). Contract, Cart item: `tax`
 * is the tax for the line and `total` = (price * quantity) + tax, so the line's tax is taken as
 * the shop computed it, whatever its rounding (per unit or per line): the Cart's totals are the
 * sums of the shop's own line totals (docs/decisions/money-and-cart.md).
 *
 * `quantities` (product id → new quantity; 0 drops the line) gives the edited cart of an order
 * update `cart_update`. A changed line's tax is re-derived from the line: exactly `tax /
 * quantity` per unit when that is whole cents, else the line's tax in proportion, rounded half
 * up to a cent (a shop that rounds tax per line rounds the new line the same way, within a cent).
 * A line the contract cannot carry (not whole cents, negative, no units) throws
 * ServiceInputError naming it: a 4xx for a route, never a 500.
 */
export function cartOfLines(
  source: {
    id: string;
    currency: string;
    items: readonly ShopOrderItem[];
    delivery: DeliveryCharge | null;
    /** The cart-level discounts (promotion codes), as the shop fixed them. */
    discounts?: readonly Discount[];
  },
  quantities?: Readonly<Record<string, number>>,
): Cart {
  const items: CartLineInput[] = [];
  for (const item of source.items) {
    const problem = lineProblem(item);
    if (problem) throw new ServiceInputError("cart", `line ${item.productId}: ${problem}`);
    const quantity = quantities?.[item.productId] ?? item.quantity;
    if (!Number.isSafeInteger(quantity) || quantity < 0) {
      throw new ServiceInputError(
        "cart",
        `quantity of ${item.productId} must be a whole number from 0`,
      );
    }
    if (quantity === 0) continue;
    const { productId, name, description, url, price } = item;
    items.push({
      id: productId,
      name,
      description,
      url,
      quantity,
      price,
      tax: lineTaxFor(item.tax, item.quantity, quantity),
    });
  }
  if (items.length > 0 && source.delivery) items.push(deliveryLine(source.delivery));
  const discounts = source.discounts && source.discounts.length > 0 ? [...source.discounts] : [];
  return buildCart({ id: source.id, currency: source.currency, items, discounts });
}

/** Why a shop's line cannot be a contract Cart item, or null (contract: Limits, whole cents). */
function lineProblem(item: Pick<ShopOrderItem, "quantity" | "price" | "tax">): string | null {
  if (!Number.isSafeInteger(item.quantity) || item.quantity < 1) {
    return "quantity must be a whole number from 1";
  }
  if (!Number.isSafeInteger(item.price) || item.price < 0) {
    return "unit price must be a whole number of cents from 0";
  }
  if (!Number.isSafeInteger(item.tax) || item.tax < 0) {
    return "tax must be a whole number of cents from 0";
  }
  return null;
}

/**
 * The tax of a line of `quantity` units, from the same line's `tax` at `was` units: the line's
 * own tax when the quantity is unchanged; the unit tax times the quantity when the tax divides
 * evenly; else in proportion, rounded half up (integers only: no floating cents).
 */
export function lineTaxFor(tax: number, was: number, quantity: number): number {
  if (quantity === was) return tax;
  if (tax % was === 0) return (tax / was) * quantity;
  const scaled = BigInt(tax) * BigInt(quantity);
  return Number((2n * scaled + BigInt(was)) / (2n * BigInt(was)));
}

/** The sum of cart-level discounts, in cents (contract: Cart, `sum(discounts.total)`). */
export function discountTotalOf(discounts: readonly Pick<Discount, "total">[]): number {
  return discounts.reduce((sum, d) => sum + d.total, 0);
}

/** An order's amounts as the integration reads them (ShopOrder's money columns). */
export interface OrderAmounts {
  /** Items before tax. */
  price: number;
  /** The items' tax, integer cents. */
  tax: number;
  /** The delivery's price, integer cents. */
  shippingPrice: number;
  /** The cart-level discounts' sum (promotion codes; not the trade-in). */
  discountTotal: number;
}

/**
 * THE formula of what an order owes before the trade-in: items + tax + delivery − discounts.
 * It is the contract Cart's `total` (price + tax − sum(discounts.total)) of the order's Cart,
 * the delivery being a line of it (docs/decisions/delivery-in-the-cart.md), and the `amount` a
 * paid notification must carry (docs/decisions/payment-matching.md).
 */
export function totalBeforeTradeIn(order: OrderAmounts): number {
  return order.price + order.tax + order.shippingPrice - order.discountTotal;
}

/** What the service collects, the order's `total`: totalBeforeTradeIn − the trade-in discount. */
export function orderTotal(order: OrderAmounts & { tradeInDiscount: number }): number {
  return totalBeforeTradeIn(order) - order.tradeInDiscount;
}

function cartTotals(
  items: Pick<CartItem, "price" | "quantity" | "tax">[],
  discounts: Pick<Discount, "total">[],
) {
  const price = items.reduce((sum, item) => sum + item.price * item.quantity, 0);
  const tax = items.reduce((sum, item) => sum + item.tax, 0);
  return { price, tax, total: price + tax - discountTotalOf(discounts) };
}
