import { z } from "zod";
import { wellFormedString } from "./well-formed.js";

/**
 * The order webhook's body (contract: Resources › Order, Events › Webhook). Fields seen: id,
 * event, order_id, cart_id, status, amount, currency, trade_in_discount, customer_id; one form
 * wraps cart_id and status inside `data`. The full shape is "not shown", so both forms are read,
 * the body text is kept with any extra fields, and an unknown status is kept as text (it is stored and shown, never a
 * crash). Parse only after the signature was verified over the same raw bytes.
 */

const text = (max: number) => wellFormedString().max(max);
const idLike = z.union([text(500).min(1), z.number()]).transform(String);
// Stored in 32-bit integer columns (PostgreSQL `integer`): a larger amount is no order of this
// shop's, and a malformed body (400), never a failed insert (500).
const storedInt = z
  .int()
  .min(-(2 ** 31))
  .max(2 ** 31 - 1);
// Amounts are integer cents (contract: Limits); a decimal makes the body malformed (400).
const fields = {
  id: idLike.nullish(),
  event: text(200).nullish(),
  order_id: idLike.nullish(),
  cart_id: idLike.nullish(),
  status: text(200).min(1).nullish(),
  amount: storedInt.nullish(),
  currency: text(20).nullish(),
  trade_in_discount: storedInt.nullish(),
  customer_id: idLike.nullish(),
};
const bodySchema = z.looseObject({ ...fields, data: z.looseObject(fields).nullish() });

/**
 * One order notification, from the parsed body to the database: the webhook stores exactly
 * this (packages/kit/src/shop-ports.ts), and reconciliation builds one from a listed order.
 */
export interface OrderNotification {
  /** The unique key a duplicate is detected by (contract, Events: "by the notification id,
   *  order_id or cart_id"): the id with its order and cart, else the order, cart and status. */
  dedupeKey: string;
  /** `id`: the notification id. */
  notificationId: string | null;
  /** `event`: the notification's event name, when the body carried one. */
  event: string | null;
  /** `order_id`: the service's order id. */
  serviceOrderId: string | null;
  /** `cart_id` (flat or in `data`): the checkout's cart id, the shop's order key. */
  cartId: string | null;
  /** `status`: pending, payment_completed, completed, or a status the contract does not name
   *  (kept as text, never applied). */
  status: string;
  /** `amount`: what the shopper paid for the order, integer cents; null when absent. */
  amount: number | null;
  /** `currency`: the amount's currency code; null when absent. */
  currency: string | null;
  /** `trade_in_discount`: what the trade-in took off, integer cents; null when absent. */
  tradeInDiscount: number | null;
  /** `customer_id`: the service's customer id; null for a guest or when absent. */
  customerId: string | null;
  /** Which body form arrived: flat, or cart_id/status wrapped in `data`. */
  form: "flat" | "data";
  /** The body text as received, with any fields we do not know, for the back office. */
  body: string;
}

/**
 * Contract, Events: a duplicate is detected by the notification id, order_id or cart_id. The
 * key holds the id together with the order and cart it is about, so an id reused for another
 * payment (a service restarted without its state numbers from the start again) is never taken
 * for a duplicate of a different payment (docs/decisions/webhook-idempotency.md).
 */
export function dedupeKey(
  n: Pick<OrderNotification, "notificationId" | "serviceOrderId" | "cartId" | "status">,
): string {
  const about = `order:${n.serviceOrderId ?? ""}:cart:${n.cartId ?? ""}`;
  return n.notificationId !== null
    ? `id:${n.notificationId}:${about}`
    : `${about}:status:${n.status}`;
}

/** Malformed body: the route answers 400 `{ error: "bad_request", error_description }`. */
export class WebhookPayloadError extends Error {
  /** Always "WebhookPayloadError". */
  override name = "WebhookPayloadError";
}

/** The webhook's raw body (UTF-8 JSON, flat or `data` form) as an OrderNotification; throws
 *  WebhookPayloadError for a malformed one (a decimal amount, no status, not JSON). Call it only
 *  after the signature was verified over the same bytes. */
export function parseOrderNotification(rawBody: Uint8Array): OrderNotification {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(rawBody);
  } catch {
    throw new WebhookPayloadError("Body is not UTF-8 text.");
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new WebhookPayloadError("Body is not valid JSON.");
  }
  const parsed = bodySchema.safeParse(json);
  if (!parsed.success) {
    throw new WebhookPayloadError(
      `Body does not match an order notification: ${z.prettifyError(parsed.error)}`,
    );
  }
  const body = parsed.data;
  const data = body.data ?? {};
  // Top level first, then `data`: in the wrapped form `data` carries cart_id and status and
  // the top level the rest; a field present in both is taken from the top level.
  const pick = <K extends keyof typeof fields>(key: K) => body[key] ?? data[key] ?? null;
  const status = pick("status");
  const serviceOrderId = pick("order_id");
  const cartId = pick("cart_id");
  if (!status) throw new WebhookPayloadError("Body has no status.");
  if (!serviceOrderId && !cartId) {
    throw new WebhookPayloadError("Body has neither order_id nor cart_id.");
  }
  const notificationId = pick("id");
  return {
    dedupeKey: dedupeKey({ notificationId, serviceOrderId, cartId, status }),
    notificationId,
    event: pick("event"),
    serviceOrderId,
    cartId,
    status,
    amount: pick("amount"),
    currency: pick("currency"),
    tradeInDiscount: pick("trade_in_discount"),
    customerId: pick("customer_id"),
    form: body.data ? "data" : "flat",
    body: text,
  };
}
