import "server-only";
import {
  expectedTradeInDiscount,
  unconfirmedValuation,
  valuationMismatch,
} from "./accepted-valuation.js";
import { afterResponse, type WaitUntil } from "./after-response.js";
import { centsText, totalBeforeTradeIn } from "./cart.js";
import { isServiceOrderStatus } from "./resources.js";
import {
  type AcceptedValuation,
  isConcurrentWrite,
  type NotificationOutcome,
  type OrderChange,
  type OrderStatusRules,
  type ServicePayStore,
  type ServicePayTx,
  type ShopOrder,
} from "./shop-ports.js";
import {
  type OrderNotification,
  parseOrderNotification,
  WebhookPayloadError,
} from "./webhook-payload.js";
import { verifyWebhookSignature, webhookSecret } from "./webhook-signature.js";

/**
 * The order webhook receiver, `POST {merchant_webhook_base}/order` (contract: Events › Webhook,
 * Authentication 5, Merchant endpoints rule 2). Framework-free: the route passes the raw body
 * bytes and the signature header and sends back what this returns.
 *
 * 1. Signature over the RAW bytes, constant-time (webhook-signature.ts). Missing or wrong → 403
 *    before anything is parsed or written.
 * 2. Malformed body with a valid signature → 400 (the service would resend the same bytes, but
 *    an operator must see it; retrying cannot fix it).
 * 3. With an inbox (notification-inbox.ts, store-then-apply): the raw notification is durably
 *    stored under its unique key, grouped with the deliveries arriving at the same moment into
 *    one commit, and answered; it is applied right after, so a 200 means stored, not applied.
 *    That apply is handed to `waitUntil` (default Next's `after()`), so a host that freezes the
 *    function after the response still lets it finish (after-response.ts); one delivery's
 *    request at a time holds the host for it (notification-inbox.ts).
 *    Without one: stored and applied in ONE transaction of the shop's store (shop-ports.ts).
 *    Either way the database's unique key decides duplicates; a duplicate is 200 too (the
 *    service must stop retrying).
 * 4. Success is exactly 200 (rule 2: 201, 204 and other 2xx do not count); a 200 means the
 *    notification is durably stored.
 */

/** When the Service Pay order is created (docs/decisions/order-creation-mode.md). */
export type OrderCreationMode = "ready_to_place_order" | "webhook";

/** What the webhook route answers: its status and JSON body, sent back as they are. */
export interface WebhookResponse {
  /** 200: stored (or a duplicate; contract: Merchant endpoints rule 2, exactly 200); 400: a
   *  malformed body; 403: a missing or wrong signature; 503: the secret is not available yet,
   *  so the service retries. */
  status: 200 | 400 | 403 | 503;
  /** `{ received, outcome }` on a 200; the contract's `{ error, error_description }` else. */
  body: Record<string, unknown>;
}

/** Where the webhook's signing secret comes from (createWebhookSecretSource: the token
 *  response's `<user_id>-<merchant_id>`, contract: Authentication 5). */
export interface WebhookSecretSource {
  /** The secret to check a signature with; `fresh` re-reads it instead of using the cache. */
  get(fresh?: boolean): Promise<string>;
}

/** What applying an order notification needs, with or without an inbox. */
export interface NotificationDeps {
  /** The shop's Service Pay store: its transactions hold the notification and the order. */
  store: ServicePayStore;
  /** The shop's status names and which contract status means which. */
  statuses: OrderStatusRules;
  /** When the Service Pay order is created: on the webhook (the contract's default), or when
   *  the SDK says ready_to_place_order. */
  mode: OrderCreationMode;
  /** The shop's public base URL, that an order created by the webhook builds its Cart items'
   *  `url`s from (contract: Cart item). */
  shopBaseUrl: string;
}

/** receiveOrderWebhook's dependencies: NotificationDeps, the secret, and the optional inbox. */
export interface OrderWebhookDeps extends NotificationDeps {
  /** The signing secret each delivery's signature is checked with. */
  secret: WebhookSecretSource;
  /** Store-then-apply (notification-inbox.ts); without it, one transaction per delivery. */
  inbox?: {
    /** Durably stores the notification: "stored", or "duplicate" when its key already was
     *  (NotificationInbox.receive). */
    receive(
      notification: OrderNotification,
      options?: { waitUntil?: WaitUntil },
    ): Promise<"stored" | "duplicate">;
  };
  /**
   * With an inbox: where the apply of what a delivery stored goes, so it finishes after the
   * 200 within the request's life (default afterResponse: Next's `after()`). A host on another
   * framework passes its platform's waitUntil.
   */
  waitUntil?: WaitUntil;
  /** Where a failure that is answered rather than thrown is told (the secret not available);
   *  default: nowhere. */
  log?: (message: string, error?: unknown) => void;
}

const FORBIDDEN: WebhookResponse = {
  status: 403,
  body: { error: "forbidden", error_description: "Missing or invalid X-Service-Signature." },
};

/**
 * Answers one delivery of the order webhook from its raw body bytes and its
 * `X-Service-Signature` header (null when absent), as the steps above say.
 */
export async function receiveOrderWebhook(
  rawBody: Uint8Array,
  signature: string | null,
  deps: OrderWebhookDeps,
): Promise<WebhookResponse> {
  if (!signature) return FORBIDDEN;
  let secret: string;
  try {
    secret = await deps.secret.get();
    // One fresh look-up on a mismatch: the API user (and so the secret) may have changed since
    // the secret was cached. A forged delivery costs one extra read, never a change.
    if (!verifyWebhookSignature(rawBody, signature, secret)) {
      const fresh = await deps.secret.get(true);
      if (fresh === secret || !verifyWebhookSignature(rawBody, signature, fresh)) return FORBIDDEN;
    }
  } catch (error) {
    // No stored token and the service cannot be reached to log in: the signature cannot be
    // checked yet. Not 403 (it may be genuine) and not 200: 503 makes the service retry.
    deps.log?.("order webhook: the signing secret is not available", error);
    return {
      status: 503,
      body: {
        error: "service_unavailable",
        error_description: "The webhook secret is not available yet; retry later.",
      },
    };
  }

  let notification: OrderNotification;
  try {
    notification = parseOrderNotification(rawBody);
  } catch (error) {
    if (error instanceof WebhookPayloadError) {
      return { status: 400, body: { error: "bad_request", error_description: error.message } };
    }
    throw error;
  }
  if (deps.inbox) {
    // 200 after the commit that holds the row; the apply follows (its outcome is stored on it).
    const stored = await deps.inbox.receive(notification, {
      waitUntil: deps.waitUntil ?? afterResponse,
    });
    return { status: 200, body: { received: true, outcome: stored } };
  }
  const result = await receiveNotification(deps, notification);
  return { status: 200, body: { received: true, outcome: result.outcome } };
}

/**
 * Contract, Authentication 5: the secret is `<user_id>-<merchant_id>` from the token response.
 * Cached in memory so a delivery costs no database read; the receiver asks for a fresh value
 * once when a signature does not match, in case the API user was changed since. A failed look-up
 * (service unreachable on the first login) is not cached.
 */
export function createWebhookSecretSource(
  loadIdentity: () => Promise<{ userId: string; merchantId: string }>,
): WebhookSecretSource {
  let cached: Promise<string> | null = null;
  return {
    get(fresh = false) {
      if (fresh || !cached) {
        const next = loadIdentity().then(webhookSecret);
        next.catch(() => {
          if (cached === next) cached = null;
        });
        cached = next;
      }
      return cached;
    },
  };
}

/** What receiving one notification did. */
export interface NotificationReceipt {
  /** How it ended; "duplicate" when its key was stored already. */
  outcome: NotificationOutcome;
  /** The number of the shop order it was applied to or created; absent while none is. */
  orderNumber?: string;
}

/**
 * Stores one notification and applies it, in ONE transaction: the unique `dedupeKey` is claimed
 * before the order is touched, so a repeated delivery inserts nothing and changes nothing, and
 * concurrent copies change the order exactly once. A notification for an order that does not
 * exist yet waits ("early") and is applied when the order is created. Also the path a
 * reconciliation repair takes, so a repaired order ends exactly as if its webhook had arrived.
 */
export async function receiveNotification(
  deps: NotificationDeps,
  n: OrderNotification,
): Promise<NotificationReceipt> {
  const result = await deps.store.transaction(async (tx): Promise<NotificationReceipt> => {
    const id = await tx.claimNotification(n);
    if (id === null) return { outcome: "duplicate" };
    return applyClaimed(tx, deps.statuses, id, n);
  });
  return createOrderOnWebhook(deps, n, result);
}

/** Applies a notification this transaction holds (claimed or just inserted) to its order, or
 *  leaves it waiting ("early") when the order does not exist yet. */
export async function applyClaimed(
  tx: ServicePayTx,
  statuses: OrderStatusRules,
  id: string,
  n: OrderNotification,
): Promise<NotificationReceipt> {
  const order = await tx.findOrderFor(n.serviceOrderId, n.cartId);
  if (!order) return { outcome: "early" };
  return applyClaimedTo(tx, statuses, id, n, order);
}

/** applyClaimed for an order the caller already found and locked (findOrderFor) in `tx`. */
export async function applyClaimedTo(
  tx: ServicePayTx,
  statuses: OrderStatusRules,
  id: string,
  n: OrderNotification,
  order: ShopOrder,
): Promise<NotificationReceipt> {
  const outcome = await applyNotification(tx, statuses, order, n);
  await tx.settleNotification(id, order.id, outcome);
  return { outcome, orderNumber: order.number };
}

/**
 * Webhook creation mode: after a notification was stored (and applied when its order existed),
 * creates the order from the checkout details kept at payment start when there is none yet.
 */
export async function createOrderOnWebhook(
  deps: NotificationDeps,
  n: OrderNotification,
  result: NotificationReceipt,
): Promise<NotificationReceipt> {
  if (deps.mode !== "webhook" || !n.cartId || result.orderNumber) return result;
  // Contract default: the order is created when the webhook arrives, from the details kept at
  // payment start. Also on a duplicate whose first copy is still waiting (the process stopped
  // between storing it and creating the order): the retry must not be swallowed.
  const cartId = n.cartId;
  try {
    return await deps.store.transaction(async (tx) => {
      const stored = await tx.notificationOutcome(n.dedupeKey);
      if (stored?.orderId !== null) return result;
      const kept = await tx.loadCheckout(cartId);
      if (!kept || (await tx.openCartId(kept.sessionId)) !== cartId) return result;
      const order = await createServicePayOrder(tx, {
        status: deps.statuses.forServiceStatus.pending,
        sessionId: kept.sessionId,
        customerId: kept.customerId,
        details: kept.details,
        valuation: kept,
        shopBaseUrl: deps.shopBaseUrl,
        note: "Service Pay: created by the order webhook",
      });
      if (!order) return result;
      await applyWaitingNotifications(tx, deps.statuses, order);
      const after = await tx.notificationOutcome(n.dedupeKey);
      return {
        outcome: result.outcome === "duplicate" ? "duplicate" : (after?.outcome ?? result.outcome),
        orderNumber: order.number,
      };
    });
  } catch (error) {
    // Another instance created the order at the same moment; it applied what was waiting.
    if (isConcurrentWrite(error)) return result;
    throw error;
  }
}

/**
 * Creates the session's pending Service Pay order (ServicePayTx.createPendingOrder) and, when the
 * valuation accepted at payment start is known, puts the discount it allows on the order at
 * once: while the order waits for its payment, the shop shows what the service's window shows
 * (docs/decisions/delivery-in-the-cart.md). The paid notification must still match it
 * (paymentMismatch). Null when the cart is empty or no longer open.
 */
export async function createServicePayOrder(
  tx: ServicePayTx,
  params: Parameters<ServicePayTx["createPendingOrder"]>[0],
): Promise<ShopOrder | null> {
  const order = await tx.createPendingOrder(params);
  if (!order) return null;
  const expected = expectedTradeInDiscount(order, {
    currency: order.currency,
    totalBeforeDiscount: totalBeforeTradeIn(order),
  });
  if (!expected || expected === order.tradeInDiscount) return order;
  return tx.changeOrder(order, {
    source: "shop",
    tradeInDiscount: expected,
    note: `Trade-in discount ${centsText(expected, order.currency)} from the accepted valuation: the payment must take exactly this off`,
  });
}

/** Applies, oldest first, every stored notification of this order that was waiting for it. */
export async function applyWaitingNotifications(
  tx: ServicePayTx,
  statuses: OrderStatusRules,
  created: ShopOrder,
): Promise<void> {
  let order = created;
  for (const waiting of await tx.waitingNotifications(order.cartId, order.serviceOrderId)) {
    const outcome = await applyNotification(tx, statuses, order, waiting);
    await tx.settleNotification(waiting.id, order.id, outcome);
    order = (await tx.findOrderFor(null, order.cartId)) ?? order;
  }
}

async function applyNotification(
  tx: ServicePayTx,
  statuses: OrderStatusRules,
  order: ShopOrder,
  n: OrderNotification,
): Promise<NotificationOutcome> {
  const lastKnown = statuses.isKnown(order.status)
    ? order.status
    : ((await tx.statusHistory(order.id)).find(statuses.isKnown) ??
      statuses.forServiceStatus.pending);
  const reused =
    n.notificationId !== null && (await tx.notificationIdTaken(n.notificationId, n.dedupeKey));
  const plan = planNotification(order, lastKnown, n, statuses, reused);
  if (plan.change) await tx.changeOrder(order, plan.change);
  return plan.outcome;
}

/**
 * Why a payment notification does not match the order it would mark paid, or null when it
 * matches (docs/decisions/payment-matching.md). The order's amounts were fixed when it was
 * created from the cart: `amount` must be everything the order owes before the trade-in (items,
 * tax and delivery less the cart-level discounts: the contract Cart's `total`, delivery being a
 * line of that Cart, docs/decisions/delivery-in-the-cart.md, docs/decisions/discounts.md), in the order's currency, and the trade-in discount a
 * whole number of cents between 0 and that amount that matches the valuation accepted when the
 * payment started (accepted-valuation.ts; an order without one is range-checked only). So what
 * the service collected, `amount − trade_in_discount`, is exactly what the order owes.
 */
export function paymentMismatch(
  order: Pick<ShopOrder, "currency" | "price" | "tax" | "shippingPrice" | "discountTotal"> &
    Partial<AcceptedValuation>,
  n: Pick<OrderNotification, "amount" | "currency" | "tradeInDiscount">,
): string | null {
  const problems: string[] = [];
  const money = (cents: number) => centsText(cents, order.currency);
  if (n.currency !== order.currency) {
    problems.push(`currency ${n.currency ?? "missing"}, the order is in ${order.currency}`);
  }
  const before = totalBeforeTradeIn(order);
  if (n.amount !== before) {
    problems.push(
      `amount ${n.amount === null ? "missing" : money(n.amount)}, the order owes ${money(before)} before the trade-in (items, tax and delivery${order.discountTotal > 0 ? `, less discounts of ${money(order.discountTotal)}` : ""})`,
    );
  }
  const discount = n.tradeInDiscount ?? 0;
  if (!Number.isSafeInteger(discount) || discount < 0 || discount > before) {
    problems.push(`trade-in discount ${money(discount)} outside ${money(0)}–${money(before)}`);
  }
  const valuation = valuationMismatch(
    order,
    { currency: order.currency, totalBeforeDiscount: before },
    discount,
  );
  if (valuation) problems.push(valuation);
  return problems.length > 0 ? problems.join("; ") : null;
}

/** What an order owes before the trade-in (cart.ts, the one formula); kept here for importers. */
export { totalBeforeTradeIn };

/**
 * Pure: what a notification does to an order (contract, Events › Webhook: retries and
 * out-of-order deliveries). `lastKnown` is the order's latest status the shop knows. A
 * notification that would mark the order paid is checked against it first (paymentMismatch);
 * one that does not match holds the order for a person and is never applied.
 */
export function planNotification(
  order: ShopOrder,
  lastKnown: string,
  n: Pick<
    OrderNotification,
    | "notificationId"
    | "dedupeKey"
    | "event"
    | "serviceOrderId"
    | "status"
    | "amount"
    | "currency"
    | "tradeInDiscount"
  >,
  statuses: OrderStatusRules,
  reusedId = false,
): {
  /** "applied", or "recorded" (late or outside the contract), "held" (a payment that does
   *  not match) or "conflict" (another service order's notification). */
  outcome: Exclude<NotificationOutcome, "stored" | "early" | "duplicate">;
  /** The change to write to the order with its history line; null: nothing changes. */
  change: OrderChange | null;
} {
  const name = `Service notification ${n.notificationId ?? n.dedupeKey}${n.event ? ` (${n.event})` : ""}`;
  const note = reusedId
    ? `${name}; its id was used before by another payment: kept as a payment of its own`
    : name;
  if (n.serviceOrderId && order.serviceOrderId && n.serviceOrderId !== order.serviceOrderId) {
    // The cart's order is already tied to another service order: keep the notification for a
    // person to look at rather than guess which one is right.
    return { outcome: "conflict", change: null };
  }
  const link =
    n.serviceOrderId && !order.serviceOrderId ? { serviceOrderId: n.serviceOrderId } : {};
  const decision = decideServiceStatus(order.status, lastKnown, n.status, statuses);
  // The host's own name for the notification's status; null only when it is not in the contract.
  const target = isServiceOrderStatus(n.status) ? statuses.forServiceStatus[n.status] : null;
  if (decision === "not_in_contract" || order.status === statuses.held) {
    // Stored with the notification and shown in the history; never applied over a known status,
    // and never over a hold a person has to resolve.
    const why =
      decision === "not_in_contract"
        ? `status "${n.status}" is not in the contract's table: kept, not applied`
        : `kept, not applied: the order is held for a person`;
    return { outcome: "recorded", change: { ...link, source: "service", note: `${note}: ${why}` } };
  }
  if (
    decision === "apply" &&
    target !== null &&
    statuses.isPaidOrLater(target) &&
    !statuses.isPaidOrLater(order.status)
  ) {
    const mismatch = paymentMismatch(order, n);
    if (mismatch) {
      return {
        outcome: "held",
        change: {
          ...link,
          to: statuses.held,
          source: "service",
          note: `${note}: held for a person, the payment does not match the order (${mismatch})`,
        },
      };
    }
  }
  const change: OrderChange = { ...link, source: "service", note };
  if (decision === "apply" && target !== null) change.to = target;
  if (
    change.to !== undefined &&
    statuses.isPaidOrLater(change.to) &&
    !statuses.isPaidOrLater(order.status)
  ) {
    // Paid with only the range check: the history says the valuation was not confirmed.
    const unconfirmed = unconfirmedValuation(order);
    if (unconfirmed) change.note = `${note}; ${unconfirmed}`;
  }
  // The service applies the trade-in value in its modal; the order shows what it took off. A
  // late (stale) notification does not overwrite it, and a discount is taken over only from a
  // notification that passes the payment check (whatever its status), so no notification can
  // put a discount on the order that a paid one would have been held for.
  let refused = false;
  if (
    n.tradeInDiscount !== null &&
    n.tradeInDiscount !== order.tradeInDiscount &&
    decision !== "stale"
  ) {
    const mismatch = paymentMismatch(order, n);
    if (mismatch) {
      change.note = `${change.note}; its trade-in discount was not taken over (${mismatch})`;
      refused = true;
    } else {
      change.tradeInDiscount = n.tradeInDiscount;
    }
  }
  const changed =
    change.to !== undefined ||
    change.serviceOrderId !== undefined ||
    change.tradeInDiscount !== undefined ||
    reusedId ||
    refused;
  return {
    outcome: decision === "stale" ? "recorded" : "applied",
    change: changed ? change : null,
  };
}

/** What an order does with the contract status a notification carries (decideServiceStatus). */
export type ServiceStatusDecision =
  /** the order takes the incoming status */
  | "apply"
  /** the order already has it: nothing to change */
  | "same"
  /** kept in the notification log only: it would move the order backwards (a late delivery) */
  | "stale"
  /** a status outside the contract's table: stored and shown, never applied */
  | "not_in_contract";

/**
 * `current` is the order's status; `lastKnown` its latest status the shop knows; `incoming` the
 * notification's status in the contract's words, judged as the host status it maps to
 * (OrderStatusRules.forServiceStatus).
 * - A status outside the contract's table is stored and shown, never applied.
 * - A contract status is applied only when it lies ahead of the last known status, so `pending`
 *   after `payment_completed` is recorded but never regresses the order; `completed` after
 *   `pending` (the `payment_completed` delivery still on its way) moves it forward at once.
 */
export function decideServiceStatus(
  current: string,
  lastKnown: string,
  incoming: string,
  statuses: OrderStatusRules,
): ServiceStatusDecision {
  if (!isServiceOrderStatus(incoming)) return "not_in_contract";
  const target = statuses.forServiceStatus[incoming];
  if (target === current) return "same";
  return statuses.canReach(lastKnown, target) ? "apply" : "stale";
}
