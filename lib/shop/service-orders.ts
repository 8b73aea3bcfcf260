import { z } from "zod";
import type { Db, Tx } from "@/lib/db/client";
import { sqliteConnection } from "@/lib/db/sqlite-wal";
import { addressSchema } from "./address";
import { loadCartWith } from "./cart";
import { CheckoutError, createOrderFromCart } from "./orders";
import {
  inOwnTransaction,
  type NotificationOutcome,
  type NotificationRow,
  type NotificationSql,
  notificationSql,
} from "./service-notification-sql";
import { SHIPPING_METHOD_IDS } from "./shipping";

// Service Pay orders on the shop's side (issue #5): the checkout details kept at payment start,
// the pending order, and the order webhook's notifications stored and applied. Contract,
// Events › Webhook: the webhook "may arrive before the merchant has finished creating its
// order"; the receiver "must be idempotent"; "By default the merchant's order is created when
// the webhook arrives; a merchant may instead create a pending order on ready-to-place-order".

/** When the Service Pay order is created (README, "Service integration"). */
export type OrderCreationMode = "ready_to_place_order" | "webhook";

/** What the checkout form holds when the shopper pays with the service (JSON, zod-validated). */
export const serviceCheckoutSchema = z
  .object({
    email: z.email("Enter an email address like name@example.com.").max(200),
    billing: addressSchema,
    /** omitted: delivered to the billing address */
    shipping: addressSchema.optional(),
    shipping_method: z.enum(SHIPPING_METHOD_IDS, { error: "Choose a delivery method." }),
  })
  .transform((d) => ({
    email: d.email,
    billing: d.billing,
    shipping: d.shipping ?? d.billing,
    shippingMethod: d.shipping_method,
  }));

export type ServiceCheckoutDetails = z.output<typeof serviceCheckoutSchema>;

/**
 * Body of POST /api/service/pending-order: `cart_id` (optional; the cart the SDK was shown, so a
 * repeat after the cart became an order returns that order) and, optionally, the checkout
 * details; without them the details kept by POST /api/service/checkout are used.
 */
export const pendingOrderRequestSchema = z
  .looseObject({ cart_id: z.string().min(1).max(100).optional() })
  .transform((body, ctx) => {
    const hasDetails = ["email", "billing", "shipping", "shipping_method"].some(
      (key) => body[key] !== undefined,
    );
    if (!hasDetails) return { cartId: body.cart_id, details: undefined };
    const details = serviceCheckoutSchema.safeParse(body);
    if (!details.success) {
      for (const issue of details.error.issues) ctx.addIssue({ ...issue, code: "custom" });
      return z.NEVER;
    }
    return { cartId: body.cart_id, details: details.data };
  });

type Reader = Tx | Db;

/** The session's open cart id, or null when it has none or it is empty. */
async function openCartId(db: Reader, sessionId: string): Promise<string | null> {
  const cart = await loadCartWith(db as Tx, sessionId);
  return cart && cart.lines.length > 0 ? cart.id : null;
}

/** Keeps the checkout details of the session's open cart, keyed by cart id. */
export async function saveServiceCheckout(
  db: Reader,
  params: { sessionId: string; customerId: string | null; details: ServiceCheckoutDetails },
): Promise<{ ok: true; cartId: string } | { ok: false; error: "empty_cart" }> {
  const cartId = await openCartId(db, params.sessionId);
  if (!cartId) return { ok: false, error: "empty_cart" };
  const data = {
    sessionId: params.sessionId,
    customerId: params.customerId,
    email: params.details.email,
    billing: JSON.stringify(params.details.billing),
    shipping: JSON.stringify(params.details.shipping),
    shippingMethod: params.details.shippingMethod,
  };
  await db.serviceCheckout.upsert({ where: { cartId }, create: { cartId, ...data }, update: data });
  return { ok: true, cartId };
}

/** The details kept for a cart, or null. A row that no longer parses counts as none. */
export async function loadServiceCheckout(db: Reader, cartId: string) {
  const row = await db.serviceCheckout.findUnique({ where: { cartId } });
  if (!row) return null;
  const parsed = serviceCheckoutSchema.safeParse({
    email: row.email,
    billing: JSON.parse(row.billing),
    shipping: JSON.parse(row.shipping),
    shipping_method: row.shippingMethod,
  });
  return parsed.success ? { ...row, details: parsed.data } : null;
}

export type PendingOrderResult =
  | {
      ok: true;
      mode: OrderCreationMode;
      created: boolean;
      cartId: string;
      /** null in webhook mode until the webhook created the order */
      orderId: string | null;
      number: string | null;
    }
  | { ok: false; error: "empty_cart" | "cart_changed" | "missing_details"; message: string };

const REPLAY_WINDOW_MS = 30 * 60 * 1000;

/**
 * Ready-to-place-order mode: creates the pending Service Pay order of the session's open cart,
 * idempotent by cart id (a repeat for a cart that already became an order returns that order);
 * notifications that arrived before it are applied in the same transaction.
 * Webhook mode: only keeps the details (when sent) and reports the order if the webhook has
 * already created it.
 */
export async function createServicePendingOrder(
  db: Db,
  params: {
    sessionId: string;
    customerId: string | null;
    cartId?: string;
    details?: ServiceCheckoutDetails;
    shopBaseUrl: string;
    mode: OrderCreationMode;
  },
): Promise<PendingOrderResult> {
  const { mode } = params;
  const existing = async (tx: Reader, cartId = params.cartId) => {
    // Only this session's own order is returned: a cart id from another session reveals nothing.
    const order = cartId
      ? await tx.order.findFirst({ where: { cartId, sessionId: params.sessionId } })
      : await tx.order.findFirst({
          where: {
            sessionId: params.sessionId,
            paymentMethod: "service_pay",
            createdAt: { gte: new Date(Date.now() - REPLAY_WINDOW_MS) },
          },
          orderBy: { createdAt: "desc" },
        });
    return order
      ? ({
          ok: true,
          mode,
          created: false,
          orderId: order.id,
          number: order.number,
          cartId: order.cartId,
        } as const)
      : null;
  };
  const sql = notificationSql(await sqliteConnection(db));
  try {
    return await db.$transaction(async (tx): Promise<PendingOrderResult> => {
      const cartId = await openCartId(tx, params.sessionId);
      if (!cartId || (params.cartId && params.cartId !== cartId)) {
        const found = await existing(tx);
        if (found) return found;
        return cartId
          ? { ok: false, error: "cart_changed", message: "Your cart has changed." }
          : { ok: false, error: "empty_cart", message: "Your cart is empty." };
      }
      let details = params.details;
      if (details) {
        await saveServiceCheckout(tx, { ...params, details });
      } else {
        details = (await loadServiceCheckout(tx, cartId))?.details;
      }
      if (!details) {
        return {
          ok: false,
          error: "missing_details",
          message: "Enter your contact and delivery details first.",
        };
      }
      if (mode === "webhook") {
        return { ok: true, mode, created: false, cartId, orderId: null, number: null };
      }
      const order = await createServiceOrder(tx, sql, {
        sessionId: params.sessionId,
        customerId: params.customerId,
        details,
        shopBaseUrl: params.shopBaseUrl,
        note: "Service Pay: ready to place order",
      });
      return { ok: true, mode, created: true, orderId: order.id, number: order.number, cartId };
    });
  } catch (error) {
    // Another instance created it at the same moment (Order.cartId is unique): return that one.
    if (isUniqueViolation(error) || error instanceof CheckoutError) {
      const found = await existing(db);
      if (found) return found;
    }
    throw error;
  }
}

async function createServiceOrder(
  tx: Tx,
  sql: NotificationSql,
  params: {
    sessionId: string;
    customerId: string | null;
    details: ServiceCheckoutDetails;
    shopBaseUrl: string;
    note: string;
  },
) {
  const order = await createOrderFromCart(tx, {
    sessionId: params.sessionId,
    customerId: params.customerId,
    input: { ...params.details, paymentMethod: "service_pay" },
    shopBaseUrl: params.shopBaseUrl,
    status: "pending",
    note: params.note,
  });
  // Synchronous statements on the same connection: they join this Prisma transaction.
  sql.applyWaiting(order.id);
  return order;
}

/**
 * Webhook mode: creates the order of a cart from the details kept at payment start. Null when
 * none were kept or the cart is no longer the session's open cart (the notification then waits).
 */
async function createOrderFromSavedCheckout(
  tx: Tx,
  sql: NotificationSql,
  cartId: string,
  shopBaseUrl: string,
) {
  const saved = await loadServiceCheckout(tx, cartId);
  if (!saved || (await openCartId(tx, saved.sessionId)) !== cartId) return null;
  return createServiceOrder(tx, sql, {
    sessionId: saved.sessionId,
    customerId: saved.customerId,
    details: saved.details,
    shopBaseUrl,
    note: "Service Pay: created by the order webhook",
  });
}

/** A parsed, signature-checked notification (lib/service/webhook-payload.ts), as stored. */
export interface IncomingNotification {
  notificationId: string | undefined;
  event: string | undefined;
  orderId: string | undefined;
  cartId: string | undefined;
  status: string;
  amount: number | undefined;
  currency: string | undefined;
  tradeInDiscount: number | undefined;
  form: "flat" | "data";
  body: string;
}

export type { NotificationOutcome };

/**
 * The unique key a duplicate is detected by (contract: "by the notification id, order_id or
 * cart_id"): the id when the body has one, else the order it names and the status it carries.
 */
export function dedupeKey(
  n: Pick<IncomingNotification, "notificationId" | "orderId" | "cartId" | "status">,
) {
  return n.notificationId !== undefined
    ? `id:${n.notificationId}`
    : `order:${n.orderId ?? ""}:cart:${n.cartId ?? ""}:status:${n.status}`;
}

/**
 * Stores the notification and applies it, in ONE transaction, on the synchronous SQL path of
 * service-notification-sql.ts. The unique `dedupeKey` is inserted with ON CONFLICT DO NOTHING
 * before the order is touched: a repeated delivery inserts nothing and changes nothing, so
 * concurrent copies change the order exactly once, and a repeat is answered as a duplicate
 * (still 200: the service must stop retrying).
 */
export async function receiveServiceNotification(
  db: Db,
  n: IncomingNotification,
  options: { mode: OrderCreationMode; shopBaseUrl: string },
): Promise<{ outcome: NotificationOutcome; orderNumber?: string }> {
  const sql = notificationSql(await sqliteConnection(db));
  const row: NotificationRow = {
    dedupeKey: dedupeKey(n),
    notificationId: n.notificationId ?? null,
    event: n.event ?? null,
    serviceOrderId: n.orderId ?? null,
    cartId: n.cartId ?? null,
    status: n.status,
    amount: n.amount ?? null,
    currency: n.currency ?? null,
    tradeInDiscount: n.tradeInDiscount ?? null,
    form: n.form,
    body: n.body,
  };
  const result = await inOwnTransaction(sql.db, () => sql.receive(row));
  if (options.mode !== "webhook" || !n.cartId || result.orderNumber) return result;
  // Contract default: the order is created when the webhook arrives, from the details kept at
  // payment start. Also on a duplicate whose first copy is still waiting (the process stopped
  // between storing it and creating the order): the retry must not be swallowed.
  if (sql.outcomeOf(row.dedupeKey)?.orderId !== null) return result;
  const cartId = n.cartId;
  let created: { number: string } | null = null;
  try {
    created = await db.$transaction((tx) =>
      createOrderFromSavedCheckout(tx, sql, cartId, options.shopBaseUrl),
    );
  } catch (error) {
    // Another instance created it at the same moment; it applied the waiting notifications.
    if (!isUniqueViolation(error)) throw error;
  }
  if (!created) return result;
  const stored = sql.outcomeOf(row.dedupeKey);
  return {
    outcome: result.outcome === "duplicate" ? "duplicate" : (stored?.outcome ?? result.outcome),
    orderNumber: created.number,
  };
}

export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    (error as { code: unknown }).code === "P2002"
  );
}

/** The notifications of one order, newest first, for the back office. */
export function listServiceNotifications(db: Reader, orderId: string) {
  return db.serviceNotification.findMany({
    where: { orderId },
    orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
  });
}
