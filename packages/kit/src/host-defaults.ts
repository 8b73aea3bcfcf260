import { z } from "zod";
import { ADDRESS_FIELDS, type Address, addressSchema, type ShopOrderItem } from "./cart.js";
import type {
  CheckoutDetails,
  CheckoutFormFields,
  OrderStatusRules,
  ShopRoutes,
} from "./shop-ports.js";

// What every host writes the same way unless it chooses otherwise: where it mounts the kit's
// routes, what its checkout form calls its inputs, the checkout routes' body, its order statuses
// and a placed order's lines. Each is a default a host takes whole or overrides piece by piece.
// Environment-neutral (no server-only import): a checkout form, a client component, passes the
// routes and field names to the payment option.

/** Where a host mounts the kit's handlers and its confirmation page, unless it says otherwise. */
export const DEFAULT_SHOP_ROUTES: Readonly<ShopRoutes> = {
  callbacks: "/api/service",
  confirmation: "/checkout/confirmation",
  checkout: "/api/service/checkout",
  pendingOrder: "/api/service/pending-order",
};

/** The host's ShopRoutes: DEFAULT_SHOP_ROUTES with the paths it names instead. */
export function shopRoutes(overrides: Partial<ShopRoutes> = {}): ShopRoutes {
  return { ...DEFAULT_SHOP_ROUTES, ...overrides };
}

/** Each contract Address field's input, named `${prefix}_${field}` (`billing_city`). */
export function addressFieldNames(prefix: string): Record<keyof Address, string> {
  return Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, `${prefix}_${field}`])) as Record<
    keyof Address,
    string
  >;
}

/**
 * The host checkout form's input names: by default `email`, `billing_<field>` and
 * `shipping_<field>` for each contract Address field, `shipping_same`, `shipping_method`
 * (the names checkoutBodySchema reads); `overrides` names others.
 */
export function checkoutFormFields(
  overrides: Partial<CheckoutFormFields> = {},
): CheckoutFormFields {
  return {
    email: "email",
    billing: addressFieldNames("billing"),
    shipping: addressFieldNames("shipping"),
    shippingSame: "shipping_same",
    shippingMethod: "shipping_method",
    ...overrides,
  };
}

const required = z.string().trim().min(1, "required").max(200);

/** A contract Address a parcel can go to: names, street, city and postal code filled in, the
 *  country as two capital letters (ISO 3166-1 alpha-2). */
export const deliveryAddressSchema = addressSchema.extend({
  /** The party's given name; required. */
  given_name: required,
  /** The party's family name; required. */
  family_name: required,
  /** The street address; required. */
  address: required,
  /** The city; required. */
  city: required,
  /** The postal code; required. */
  postal_code: required,
  /** The country, ISO 3166-1 alpha-2 in capitals (e.g. `DE`). */
  country_code: z.string().regex(/^[A-Z]{2}$/, "two capital letters"),
});

/** What checkoutBodySchema needs of the shop. */
export interface CheckoutBodyOptions {
  /** The delivery methods the shop offers, by id: `shipping_method` must be one of them. */
  shippingMethods: readonly [string, ...string[]];
  /** Each address's schema (default deliveryAddressSchema). */
  address?: z.ZodType<Address>;
}

/**
 * The checkout routes' body (the kit's CheckoutDetailsBody, as checkoutDetailsFromForm reads
 * the form) giving the kit's CheckoutDetails: an email, a billing address, a shipping address
 * (omitted: the billing one) and one of the shop's delivery methods. What serviceRouteHandlers
 * takes as `checkoutBody`; its failures are answered 400 naming the fields.
 */
export function checkoutBodySchema(options: CheckoutBodyOptions): z.ZodType<CheckoutDetails> {
  const address = options.address ?? deliveryAddressSchema;
  return z
    .object({
      email: z.email().max(200),
      billing: address,
      shipping: address.optional(),
      shipping_method: z.enum(options.shippingMethods),
    })
    .transform(
      (d): CheckoutDetails => ({
        email: d.email,
        billing: d.billing,
        shipping: d.shipping ?? d.billing,
        shippingMethod: d.shipping_method,
      }),
    );
}

/** A host's order statuses as a table: what OrderStatusRules is built from. */
export interface OrderStatusTable {
  /** Each status's next statuses in one step, by the shop's names; a status that goes nowhere
   *  is a key with none, or only a target. Every key and target is a status the shop knows. */
  transitions: Readonly<Record<string, readonly string[]>>;
  /** The shop's status for each of the contract's (OrderStatusRules.forServiceStatus). */
  forServiceStatus: OrderStatusRules["forServiceStatus"];
  /** The shop's status after each accepted update type, or null to keep it. */
  afterUpdate: OrderStatusRules["afterUpdate"];
  /** The statuses in which the payment is known and matched. */
  paidOrLater: readonly string[];
  /** The status an order is held in for a person (OrderStatusRules.held). */
  held: string;
}

/** The statuses a host gets unless it names its own (the example hosts' names). */
export const DEFAULT_ORDER_STATUSES: Readonly<OrderStatusTable> = {
  transitions: {
    awaiting_payment: ["paid", "on_hold", "cancelled"],
    on_hold: ["paid", "cancelled"],
    paid: ["shipped", "complete", "cancelled"],
    shipped: ["complete", "returned"],
    complete: ["returned"],
  },
  forServiceStatus: {
    pending: "awaiting_payment",
    payment_completed: "paid",
    completed: "complete",
  },
  afterUpdate: {
    shipped: "shipped",
    returned: "returned",
    partial_shipment: null,
    partial_return: null,
    cart_update: null,
  },
  paidOrLater: ["paid", "shipped", "complete", "returned"],
  held: "on_hold",
};

/**
 * The kit's OrderStatusRules from a table of statuses: DEFAULT_ORDER_STATUSES with the parts
 * `overrides` gives instead (a host with its own names gives at least `transitions`,
 * `forServiceStatus`, `paidOrLater` and `held`). `canReach` follows the transitions any number
 * of steps; `isKnown` is every status the table names.
 */
export function orderStatusRules(overrides: Partial<OrderStatusTable> = {}): OrderStatusRules {
  const table = { ...DEFAULT_ORDER_STATUSES, ...overrides };
  const next = new Map(Object.entries(table.transitions));
  const known = new Set([...next.keys(), ...[...next.values()].flat()]);
  const paid = new Set(table.paidOrLater);
  const canReach = (from: string, to: string) => {
    const seen = new Set<string>();
    const queue = [...(next.get(from) ?? [])];
    for (let status = queue.shift(); status !== undefined; status = queue.shift()) {
      if (status === to) return true;
      if (seen.has(status)) continue;
      seen.add(status);
      queue.push(...(next.get(status) ?? []));
    }
    return false;
  };
  return {
    forServiceStatus: table.forServiceStatus,
    afterUpdate: table.afterUpdate,
    isKnown: (status) => known.has(status),
    canReach,
    canTransition: (from, to) => (next.get(from) ?? []).includes(to),
    isPaidOrLater: (status) => paid.has(status),
    held: table.held,
  };
}

/** A cart line as a host keeps it: its product, the unit price and the unit's tax. */
export interface HostCartLine {
  /** The product's id in the shop (the order line's `productId`). */
  productId: string;
  /** The product's name as the shopper reads it. */
  name: string;
  /** The product's description as the shopper reads it. */
  description: string;
  /** How many units, a whole number of at least one. */
  quantity: number;
  /** unit price before tax, in cents */
  price: number;
  /** one unit's tax, in cents */
  tax: number;
}

/**
 * A placed order's lines (or an open cart's, for the shopper source) from the host's cart
 * lines: the tax of the whole line (the contract's item tax), each line's page by
 * `productUrl` (default the shop's page anchored at the product, `${shopBaseUrl}/#${productId}`).
 */
export function orderItemsOf(
  lines: readonly HostCartLine[],
  shopBaseUrl: string,
  productUrl: (line: HostCartLine) => string = (line) => `${shopBaseUrl}/#${line.productId}`,
): ShopOrderItem[] {
  return lines.map((line) => ({
    productId: line.productId,
    name: line.name,
    description: line.description,
    url: productUrl(line),
    quantity: line.quantity,
    price: line.price,
    tax: line.tax * line.quantity,
  }));
}
