import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Db, Tx } from "@/lib/db/client";
import { addressSchema } from "./address";
import { loadCartWith } from "./cart";
import { sumCents } from "./money";
import { isOrderStatus, type OrderStatus } from "./order-status";
import { CheckoutError, createOrderFromCart } from "./orders";
import { decideServiceStatus } from "./service-status";
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
      const order = await createServiceOrder(tx, {
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
  await applyWaitingNotifications(tx, order.id);
  return order;
}

/**
 * Webhook mode: creates the order of a cart from the details kept at payment start. Null when
 * none were kept or the cart is no longer the session's open cart (the notification then waits).
 */
async function createOrderFromSavedCheckout(tx: Tx, cartId: string, shopBaseUrl: string) {
  const saved = await loadServiceCheckout(tx, cartId);
  if (!saved || (await openCartId(tx, saved.sessionId)) !== cartId) return null;
  return createServiceOrder(tx, {
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

export type NotificationOutcome = "early" | "applied" | "recorded" | "conflict" | "duplicate";

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
 * Stores the notification and applies it, in ONE transaction. The notification's unique
 * `dedupeKey` is inserted with ON CONFLICT DO NOTHING before the order is touched: a repeated
 * delivery inserts nothing and changes nothing, so concurrent copies change the order exactly
 * once, and a repeat is answered as a duplicate (still 200: the service must stop retrying).
 *
 * The hot path is four parameterised SQL statements through Prisma's `$queryRaw`/`$executeRaw`
 * (find the order, insert the notification, update the order, add its history row) rather than
 * model queries: each model query costs about 0.7 ms of CPU in Prisma 6's JS engine against
 * 0.17 ms for a raw one, and `npm run bench:webhook` holds this route to 80 % of an empty route.
 */
export async function receiveServiceNotification(
  db: Db,
  n: IncomingNotification,
  options: { mode: OrderCreationMode; shopBaseUrl: string },
): Promise<{ outcome: NotificationOutcome; orderNumber?: string }> {
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
  return db.$transaction(async (tx) => {
    const order = await findOrderFor(tx, n);
    if (order) {
      const plan = await planNotification(tx, order, row);
      if (!(await insertNotification(tx, row, order.id, plan.outcome))) {
        return { outcome: "duplicate" as const };
      }
      await writePlan(tx, order, plan);
      return { outcome: plan.outcome, orderNumber: order.number };
    }
    if (!(await insertNotification(tx, row, null, "early")))
      return { outcome: "duplicate" as const };
    if (options.mode === "webhook" && n.cartId) {
      // Contract default: the order is created when the webhook arrives. Creating it applies
      // every waiting notification of the cart, this one included.
      const created = await createOrderFromSavedCheckout(tx, n.cartId, options.shopBaseUrl);
      if (created) {
        const stored = await tx.serviceNotification.findUniqueOrThrow({
          where: { dedupeKey: row.dedupeKey },
        });
        return { outcome: stored.outcome as NotificationOutcome, orderNumber: created.number };
      }
    }
    return { outcome: "early" as const };
  });
}

/** The stored fields of a notification (model ServiceNotification). */
interface NotificationRow {
  dedupeKey: string;
  notificationId: string | null;
  event: string | null;
  serviceOrderId: string | null;
  cartId: string | null;
  status: string;
  amount: number | null;
  currency: string | null;
  tradeInDiscount: number | null;
  form: string;
  body: string;
}

/** The order fields a notification reads. */
interface OrderRow {
  id: string;
  number: string;
  cartId: string;
  status: string;
  serviceOrderId: string | null;
  price: number;
  tax: number;
  shippingPrice: number;
  tradeInDiscount: number;
}

/** Inserts the notification unless its dedupe key is known; false for a duplicate. */
async function insertNotification(
  tx: Tx,
  r: NotificationRow,
  orderId: string | null,
  outcome: NotificationOutcome,
): Promise<boolean> {
  const now = new Date();
  const inserted = await tx.$executeRaw`
    INSERT INTO "ServiceNotification" ("id", "dedupeKey", "notificationId", "event",
      "serviceOrderId", "cartId", "status", "amount", "currency", "tradeInDiscount", "form",
      "body", "outcome", "orderId", "receivedAt", "appliedAt")
    VALUES (${randomUUID()}, ${r.dedupeKey}, ${r.notificationId}, ${r.event}, ${r.serviceOrderId},
      ${r.cartId}, ${r.status}, ${r.amount}, ${r.currency}, ${r.tradeInDiscount}, ${r.form},
      ${r.body}, ${outcome}, ${orderId}, ${now}, ${orderId ? now : null})
    ON CONFLICT ("dedupeKey") DO NOTHING`;
  return inserted === 1;
}

/** The order a notification names: by the service's order id first, else by cart id. */
async function findOrderFor(
  tx: Tx,
  n: Pick<IncomingNotification, "orderId" | "cartId">,
): Promise<OrderRow | null> {
  // A missing key is NULL, and `= NULL` matches nothing.
  const rows = await tx.$queryRaw<OrderRow[]>`
    SELECT "id", "number", "cartId", "status", "serviceOrderId", "price", "tax", "shippingPrice",
      "tradeInDiscount"
    FROM "Order" WHERE "serviceOrderId" = ${n.orderId ?? null} OR "cartId" = ${n.cartId ?? null}
    LIMIT 2`;
  return rows.find((r) => n.orderId && r.serviceOrderId === n.orderId) ?? rows[0] ?? null;
}

/** Applies, oldest first, every stored notification of this order's cart not yet applied. */
async function applyWaitingNotifications(tx: Tx, orderId: string) {
  const select = {
    id: true,
    number: true,
    cartId: true,
    status: true,
    serviceOrderId: true,
    price: true,
    tax: true,
    shippingPrice: true,
    tradeInDiscount: true,
  } as const;
  let order = await tx.order.findUniqueOrThrow({ where: { id: orderId }, select });
  const waiting = await tx.serviceNotification.findMany({
    where: {
      orderId: null,
      OR: [
        { cartId: order.cartId },
        ...(order.serviceOrderId ? [{ serviceOrderId: order.serviceOrderId }] : []),
      ],
    },
    orderBy: [{ receivedAt: "asc" }, { id: "asc" }],
  });
  for (const note of waiting) {
    const plan = await planNotification(tx, order, note);
    await tx.serviceNotification.update({
      where: { id: note.id },
      data: { orderId: order.id, outcome: plan.outcome, appliedAt: new Date() },
    });
    await writePlan(tx, order, plan);
    order = await tx.order.findUniqueOrThrow({ where: { id: orderId }, select });
  }
}

/** The order's latest status we know: a status the service sent that we do not know is
 *  skipped, so a later known status is still checked against where the order really was. */
async function lastKnownStatus(tx: Tx, order: OrderRow): Promise<OrderStatus> {
  if (isOrderStatus(order.status)) return order.status;
  const history = await tx.orderStatusChange.findMany({
    where: { orderId: order.id },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { to: true },
  });
  return history.map((h) => h.to).find(isOrderStatus) ?? "pending";
}

interface NotificationPlan {
  outcome: "applied" | "recorded" | "conflict";
  status: string | null;
  serviceOrderId: string | null;
  tradeInDiscount: number | null;
  historyNote: string;
}

/** What a notification does to an order; nothing is written here. */
async function planNotification(
  tx: Tx,
  order: OrderRow,
  note: Pick<
    NotificationRow,
    "notificationId" | "dedupeKey" | "event" | "serviceOrderId" | "status" | "tradeInDiscount"
  >,
): Promise<NotificationPlan> {
  const historyNote = `Service notification ${note.notificationId ?? note.dedupeKey}${note.event ? ` (${note.event})` : ""}`;
  if (note.serviceOrderId && order.serviceOrderId && note.serviceOrderId !== order.serviceOrderId) {
    // The cart's order is already tied to another service order: keep the notification for a
    // person to look at rather than guess which one is right.
    const none = { status: null, serviceOrderId: null, tradeInDiscount: null };
    return { outcome: "conflict", ...none, historyNote };
  }
  const decision = decideServiceStatus(order.status, await lastKnownStatus(tx, order), note.status);
  return {
    outcome: decision === "stale" ? "recorded" : "applied",
    status: decision === "apply" ? note.status : null,
    serviceOrderId: note.serviceOrderId && !order.serviceOrderId ? note.serviceOrderId : null,
    // The service applies the trade-in value in its modal; the order shows what it took off. A
    // late (stale) notification does not overwrite it.
    tradeInDiscount:
      note.tradeInDiscount !== null &&
      note.tradeInDiscount !== order.tradeInDiscount &&
      decision !== "stale"
        ? note.tradeInDiscount
        : null,
    historyNote,
  };
}

/** The order's new fields (one UPDATE) and, when its status moved, the history row. */
async function writePlan(tx: Tx, order: OrderRow, plan: NotificationPlan) {
  if (plan.status === null && plan.serviceOrderId === null && plan.tradeInDiscount === null) return;
  const now = new Date();
  const discount = plan.tradeInDiscount ?? order.tradeInDiscount;
  const total = sumCents([order.price, order.tax, order.shippingPrice, -discount]);
  await tx.$executeRaw`
    UPDATE "Order" SET
      "status" = ${plan.status ?? order.status},
      "serviceOrderId" = COALESCE("serviceOrderId", ${plan.serviceOrderId}),
      "tradeInDiscount" = ${discount},
      "total" = ${total},
      "updatedAt" = ${now}
    WHERE "id" = ${order.id}`;
  if (plan.status !== null) {
    await tx.$executeRaw`
      INSERT INTO "OrderStatusChange" ("id", "orderId", "from", "to", "source", "note", "createdAt")
      VALUES (${randomUUID()}, ${order.id}, ${order.status}, ${plan.status}, 'service',
        ${plan.historyNote}, ${now})`;
  }
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
