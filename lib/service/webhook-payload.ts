import { z } from "zod";

/**
 * The order webhook's body (contract: Resources › Order, Events › Webhook). Fields seen: id,
 * event, order_id, cart_id, status, amount, currency, trade_in_discount, customer_id; one form
 * wraps cart_id and status inside `data`. The full shape is "not shown", so both forms are read,
 * extra fields are kept, and an unknown status is kept as text (it is stored and shown, never a
 * crash). Parse only after the signature was verified over the same raw bytes.
 */

/** Statuses the contract names; others are valid too ("Complete set … not shown"). */
export const KNOWN_ORDER_STATUSES = ["pending", "completed", "payment_completed"] as const;

const idLike = z.union([z.string().min(1), z.number()]).transform(String);
// Amounts are integer cents (contract: Limits); a decimal makes the body malformed (400).
const fields = {
  id: idLike.nullish(),
  event: z.string().nullish(),
  order_id: idLike.nullish(),
  cart_id: idLike.nullish(),
  status: z.string().min(1).nullish(),
  amount: z.int().nullish(),
  currency: z.string().nullish(),
  trade_in_discount: z.int().nullish(),
  customer_id: idLike.nullish(),
};
const bodySchema = z.looseObject({ ...fields, data: z.looseObject(fields).nullish() });

export interface OrderNotification {
  /** `id`: the notification id, one of the three de-duplication keys (contract: Events). */
  notificationId: string | undefined;
  event: string | undefined;
  orderId: string | undefined;
  cartId: string | undefined;
  status: string;
  isKnownStatus: boolean;
  amount: number | undefined;
  currency: string | undefined;
  tradeInDiscount: number | undefined;
  customerId: string | undefined;
  /** Which body form arrived: flat, or cart_id/status wrapped in `data`. */
  form: "flat" | "data";
  /** The parsed JSON as received, with any fields we do not know, for storage and display. */
  raw: Record<string, unknown>;
}

/** Malformed body: the route answers 400 `{ error: "bad_request", error_description }`. */
export class WebhookPayloadError extends Error {
  override name = "WebhookPayloadError";
}

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
  const pick = <K extends keyof typeof fields>(key: K) => body[key] ?? data[key] ?? undefined;
  const status = pick("status");
  const orderId = pick("order_id");
  const cartId = pick("cart_id");
  if (!status) throw new WebhookPayloadError("Body has no status.");
  if (!orderId && !cartId) throw new WebhookPayloadError("Body has neither order_id nor cart_id.");
  return {
    notificationId: pick("id"),
    event: pick("event"),
    orderId,
    cartId,
    status,
    isKnownStatus: (KNOWN_ORDER_STATUSES as readonly string[]).includes(status),
    amount: pick("amount"),
    currency: pick("currency"),
    tradeInDiscount: pick("trade_in_discount"),
    customerId: pick("customer_id"),
    form: body.data ? "data" : "flat",
    raw: json as Record<string, unknown>,
  };
}
