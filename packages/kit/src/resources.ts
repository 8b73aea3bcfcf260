import { z } from "zod";

/**
 * Shapes of the service's answers (contract: Resources, Endpoints). Tolerant on purpose: where
 * the contract says "not shown" or disagrees with the public docs, both forms are accepted and
 * unknown fields pass through (`looseObject`), so a richer answer never breaks the shop.
 */

/** Ids are strings in the contract; a number is accepted and turned into text. */
const id = z.union([z.string().min(1), z.number()]).transform(String);

/** Trade-in item: the contract names only `valid_until` and a status (`accepted`). Both are
 *  optional here; a missing one makes the item unusable (trade-in.ts) rather than a crash.
 *  `value` and `currency` are "not shown" by the contract; the bundled emulator answers them.
 *  A value that is not whole cents (a decimal, text) reads as no value, never as a crash: the
 *  payment check then treats the valuation as unknown (docs/decisions/payment-matching.md). */
export const tradeInItemSchema = z.looseObject({
  /** The trade-in item's id (the service's; text). */
  id: id.optional(),
  /** Its status; `accepted` is the one the contract names (States › Trade-in item status). */
  status: z.string().optional(),
  /** When the valuation stops being usable (ISO 8601); absent: the item is unusable. */
  valid_until: z.string().optional(),
  /** The accepted offer, integer cents; absent when the service did not answer whole cents. */
  value: z.int().nonnegative().optional().catch(undefined),
  /** The offer's currency (ISO 4217); absent when not answered. */
  currency: z.string().min(1).optional().catch(undefined),
});

/**
 * Session. `tradein_item` is an object in the contract and an id (string) in the public docs'
 * example; absent or null means no active trade-in (public-docs-facts: Sessions).
 */
export const sessionSchema = z.looseObject({
  /** `<session_hash>|<version>` (three digits); differs from the asked hash when the session
   *  moved to a new version (contract: States › Session version). */
  session_id: z.string().min(1),
  /** The session's trade-in item: an object, an id, or null/absent when none is active. */
  tradein_item: z.union([tradeInItemSchema, id, z.null()]).optional(),
  /** Present when the session moved to a new version because the cart changed. */
  note: z.string().optional(),
});

/** `GET /core/merchants/`: "Response shape: not shown", so any JSON is accepted as is. */
export const merchantsSchema = z.unknown();

/** `GET /payments/orders/`: used as an object with an `orders` array (contract: Endpoints). */
export const orderListSchema = z.looseObject({
  /** The service's orders (contract: Resources › Order). */
  orders: z.array(
    z.looseObject({
      /** The service's order id (text). */
      order_id: id,
      /** The order's amount, integer cents, when listed. */
      amount: z.int().optional(),
      /** The service's customer id; null when it knows no customer (guest). */
      customer_id: id.nullish(),
      /** The order's status (pending, payment_completed, completed), when listed. */
      status: z.string().optional(),
      /** The cart id the order was made for, when listed. */
      cart_id: id.nullish(),
    }),
  ),
});

/** The order statuses the contract names (Resources › Order). A host maps each to a status of its
 *  own (OrderStatusRules.forServiceStatus); only these move a host's order. */
export const SERVICE_ORDER_STATUSES = ["pending", "payment_completed", "completed"] as const;

/** An order status the contract names: pending, payment_completed, completed. */
export type ServiceOrderStatus = (typeof SERVICE_ORDER_STATUSES)[number];

/** Whether `value` is one of the contract's order statuses. */
export function isServiceOrderStatus(value: string): value is ServiceOrderStatus {
  return (SERVICE_ORDER_STATUSES as readonly string[]).includes(value);
}

/** The five update types of the contract's reference list (Endpoints › POST
 *  /payments/orders/update); the conflicting three-value error message is not followed. */
export const UPDATE_TYPES = [
  "shipped",
  "returned",
  "partial_shipment",
  "partial_return",
  "cart_update",
] as const;

/** The trade-in item as read (tradeInItemSchema). */
export type TradeInItem = z.infer<typeof tradeInItemSchema>;
/** The session as read (sessionSchema). */
export type Session = z.infer<typeof sessionSchema>;
/** `GET /payments/orders/` as read (orderListSchema). */
export type OrderList = z.infer<typeof orderListSchema>;
/** An order update type of the contract's five-value list. */
export type UpdateType = (typeof UPDATE_TYPES)[number];
