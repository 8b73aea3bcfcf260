import "server-only";
import {
  lookupAcceptedValuation,
  NOT_LOOKED_UP,
  type ValuationClient,
} from "./accepted-valuation.js";
import { orderTotal, totalBeforeTradeIn } from "./cart.js";
import {
  applyWaitingNotifications,
  createServicePayOrder,
  type NotificationDeps,
  type OrderCreationMode,
} from "./order-webhook.js";
import { errorJson, json } from "./route-responses.js";
import {
  type AskedAmount,
  type CheckoutDetails,
  isConcurrentWrite,
  type KeptCheckout,
  type ServicePayTx,
  type ShopOrder,
} from "./shop-ports.js";

/**
 * The Service Pay order on the shop's side (contract, Events › Webhook: "By default the
 * merchant's order is created when the webhook arrives; a merchant may instead create a pending
 * order on ready-to-place-order"; the webhook "may arrive before the merchant has finished
 * creating its order"). The checkout details are kept when payment starts; the pending order is
 * created from the session's open cart, idempotent by cart id, and the notifications that
 * arrived before it are applied in the same transaction.
 */

/** What `POST /api/service/pending-order` did (contract: Merchant endpoints, pending orders). */
export type PendingOrderResult =
  | {
      /** The pending order is there (made now or by an earlier call). */
      ok: true;
      /** The merchant's order creation mode the order was made in (pending or webhook). */
      mode: OrderCreationMode;
      /** True when this call made the order; false for a repeat that found it. */
      created: boolean;
      /** The cart the order was made from: the purchase's `cart_id` at the service. */
      cartId: string;
      /** null in webhook mode until the webhook created the order */
      orderId: string | null;
      /** The order number shown to the shopper; null while `orderId` is. */
      number: string | null;
    }
  | {
      /** No order was made, and nothing was written. */
      ok: false;
      /** Why, as the route's error code: the cart is empty, it owes other than what the service
       *  was asked to collect, no checkout details were kept, or it would owe nothing. */
      error: "empty_cart" | "cart_changed" | "missing_details" | "nothing_to_pay";
      /** The same in words for the shopper. */
      message: string;
    };

/** Thrown inside the transaction to roll back an order that would owe nothing. */
class NothingToPay extends Error {}

/** Thrown inside the transaction to roll back an order that does not owe what the service was
 *  asked to collect. */
class NotAsked extends Error {}

/** A kept checkout, or why there was nothing to keep. */
export type SavedCheckout =
  | {
      /** The details are kept for the open cart. */
      ok: true;
      /** The cart they are kept for: the `cart_id` the payment modal is opened with. */
      cartId: string;
    }
  | {
      /** Nothing was kept. */
      ok: false;
      /** The session has no open cart with a line. */
      error: "empty_cart";
    };

/** `POST /api/service/checkout`'s answer (docs/integrating.md, the routes a shop mounts). */
export function serviceCheckoutResponse(saved: SavedCheckout): Response {
  if (!saved.ok) return errorJson(409, "empty_cart", "Your cart is empty.");
  return json({ cart_id: saved.cartId });
}

/** `POST /api/service/pending-order`'s answer: 400 without details to create from, 409 when the
 *  cart is empty, changed since payment started, or would owe nothing. */
export function pendingOrderResponse(result: PendingOrderResult): Response {
  if (!result.ok) {
    return errorJson(result.error === "missing_details" ? 400 : 409, result.error, result.message);
  }
  return json({
    mode: result.mode,
    created: result.created,
    cart_id: result.cartId,
    order_number: result.number,
  });
}

/** How far back a repeat without a cart id finds the session's order (the modal's lifetime). */
const REPLAY_WINDOW_MS = 30 * 60 * 1000;

/**
 * The payment starts: keeps the checkout details of the session's open cart, keyed by cart id,
 * with the accepted valuation the service shows for the session now (accepted-valuation.ts), so
 * the paid notification's discount is checked against it. Asked of the service before the
 * transaction, never inside it; a service that is down keeps the valuation "unknown".
 */
export async function saveServiceCheckout(
  deps: Pick<NotificationDeps, "store"> & { client: ValuationClient },
  params: {
    sessionId: string;
    sessionHash: string;
    customerId: string | null;
    details: CheckoutDetails;
  },
): Promise<SavedCheckout> {
  const { sessionId, customerId, details } = params;
  // A session without a cart keeps nothing here, and every cookieless request is a new session:
  // it is answered before the service is asked, so a flood of them spends none of the merchant's
  // calls to the service (its rate limit) and no wait on it. The transaction below asks again.
  if (!(await deps.store.transaction((tx) => tx.openCartId(sessionId)))) {
    return { ok: false, error: "empty_cart" };
  }
  const valuation = await lookupAcceptedValuation(deps, params.sessionHash);
  return deps.store.transaction(async (tx) => {
    const cartId = await tx.openCartId(sessionId);
    if (!cartId) return { ok: false, error: "empty_cart" } as const;
    await tx.saveCheckout({ cartId, sessionId, customerId, details, valuation });
    return { ok: true, cartId } as const;
  });
}

/**
 * Ready-to-place-order mode: creates the pending Service Pay order of the session's open cart,
 * idempotent by cart id (a repeat for a cart that already became an order returns that order).
 * Webhook mode: only keeps the details (when sent) and reports the order if the webhook has
 * already created it.
 */
export function createServicePendingOrder(
  deps: NotificationDeps,
  params: PendingOrderParams,
): Promise<PendingOrderResult> {
  return makePendingOrder(deps, params, { paymentProven: false });
}

interface PendingOrderParams {
  sessionId: string;
  customerId: string | null;
  cartId?: string;
  details?: CheckoutDetails;
}

async function makePendingOrder(
  deps: NotificationDeps,
  params: PendingOrderParams,
  { paymentProven }: { paymentProven: boolean },
): Promise<PendingOrderResult> {
  const { mode } = deps;
  // Only this session's own order is returned: a cart id from another session reveals nothing.
  const existing = async (tx: ServicePayTx) => {
    const order = await tx.findSessionOrder(
      params.sessionId,
      params.cartId
        ? { cartId: params.cartId }
        : { since: new Date(Date.now() - REPLAY_WINDOW_MS) },
    );
    return order ? found(mode, order) : null;
  };
  try {
    return await deps.store.transaction(async (tx): Promise<PendingOrderResult> => {
      const cartId = await tx.openCartId(params.sessionId);
      if (!cartId || (params.cartId && params.cartId !== cartId)) {
        const order = await existing(tx);
        if (order) return order;
        return cartId
          ? { ok: false, error: "cart_changed", message: "Your cart has changed." }
          : { ok: false, error: "empty_cart", message: "Your cart is empty." };
      }
      const kept = await tx.loadCheckout(cartId);
      let details = params.details;
      if (details) {
        // The valuation kept at payment start stays as it was.
        await tx.saveCheckout({ cartId, ...params, details });
      } else {
        details = kept?.details;
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
      const order = await createServicePayOrder(tx, {
        status: deps.statuses.forServiceStatus.pending,
        sessionId: params.sessionId,
        customerId: params.customerId,
        details,
        valuation: kept ?? NOT_LOOKED_UP,
        shopBaseUrl: deps.shopBaseUrl,
        note: "Service Pay: ready to place order",
      });
      if (!order) {
        return (
          (await existing(tx)) ?? {
            ok: false,
            error: "cart_changed",
            message: "Your cart has changed.",
          }
        );
      }
      // A Service Pay order owes what the service collects: the cart's total less the trade-in
      // discount of the valuation kept at payment start (contract, Events › Webhook; rule 3). The
      // service collects no €0.00 payment, so an order owing nothing (a trade-in worth the whole
      // cart) is no Service Pay order: rolled back, the cart stays open.
      if (orderTotal(order) <= 0) throw new NothingToPay();
      // The order owes what the service was asked to collect for this cart: the Cart's total
      // (the paid notification's `amount`, totalBeforeTradeIn, paymentMismatch's formula) and
      // currency that purchase_data answered while the payment was open (contract, Merchant
      // endpoints: what the SDK reads to collect; callbacks.ts records it). A price changed
      // after the modal read it, or a call with no modal at all, makes no order; the shopper
      // opens the payment again. A signed paid notification already proves the payment
      // (settleAwaitedServiceOrder): its own check (paymentMismatch) holds a mismatch.
      if (!paymentProven && !asAsked(order, kept?.asked ?? null)) throw new NotAsked();
      await applyWaitingNotifications(tx, deps.statuses, order);
      return { ok: true, mode, created: true, orderId: order.id, number: order.number, cartId };
    });
  } catch (error) {
    if (error instanceof NothingToPay) {
      return {
        ok: false,
        error: "nothing_to_pay",
        message: "There is nothing to pay with Service Pay for this cart.",
      };
    }
    if (error instanceof NotAsked) {
      return {
        ok: false,
        error: "cart_changed",
        message:
          "Your cart's total is not the amount the payment window showed. Open the payment again.",
      };
    }
    // Another instance created it at the same moment (one order per cart): return that one.
    if (!isConcurrentWrite(error)) throw error;
    const order = await deps.store.transaction(existing);
    if (order) return order;
    throw error;
  }
}

/** Whether the new order owes, before the trade-in, exactly what the service was asked. */
function asAsked(order: ShopOrder, asked: AskedAmount | null): boolean {
  return (
    asked !== null &&
    asked.currency === order.currency &&
    asked.amount === totalBeforeTradeIn(order)
  );
}

function found(mode: OrderCreationMode, order: ShopOrder): PendingOrderResult {
  return {
    ok: true,
    mode,
    created: false,
    orderId: order.id,
    number: order.number,
    cartId: order.cartId,
  };
}

/** How long after the details were kept a payment counts as open (the modal's lifetime). */
const AWAIT_WINDOW_MS = 30 * 60 * 1000;

/**
 * Whether a Service Pay payment is open for the session's cart: its details were kept when the
 * payment started, within the modal's lifetime, and no order was made of it yet. While it is
 * open the cart may not change: what the shopper pays for is what the service was shown
 * (docs/decisions/payment-matching.md).
 */
export async function servicePaymentOpen(
  deps: Pick<NotificationDeps, "store">,
  sessionId: string,
  now = new Date(),
): Promise<boolean> {
  return paymentOpenFor(await deps.store.openCartCheckout(sessionId), sessionId, now);
}

/** Whether `kept` is an open payment of this session (servicePaymentOpen's rule). */
export function paymentOpenFor(
  kept: Pick<KeptCheckout, "sessionId" | "keptAt"> | null,
  sessionId: string,
  now = new Date(),
): boolean {
  return (
    kept !== null &&
    kept.sessionId === sessionId &&
    now.getTime() - kept.keptAt.getTime() <= AWAIT_WINDOW_MS
  );
}

/**
 * The shopper gives up the open payment to change the cart. A payment the service still takes
 * for the old cart then no longer matches the order and is held for a person, never paid.
 */
export async function releaseServicePayment(
  deps: Pick<NotificationDeps, "store">,
  sessionId: string,
): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const cartId = await tx.openCartId(sessionId);
    if (cartId) await tx.dropCheckout(cartId);
  });
}

/** What the confirmation page found for a Service Pay payment it waits for (settleAwaitedServiceOrder). */
export type AwaitedServiceOrder =
  /** no Service Pay payment in progress for this session */
  | "none"
  /** details kept, no signed notification yet: wait (the page refreshes itself) */
  | "waiting"
  /** a signed notification for the cart was waiting: the order was created now */
  | "created";

/**
 * The confirmation page ({merchant_success_url}) when the shopper arrives from the payment
 * modal but the order is not there (the ready-to-place-order call failed or comes late; in
 * webhook mode the order exists only once the webhook landed). A signed notification for the
 * session's open cart proves the payment, so the order is created from the kept details; the
 * waiting notification is applied in the same transaction. Without one the page only waits: a
 * shopper who closed the modal without paying keeps the cart.
 */
export async function settleAwaitedServiceOrder(
  deps: NotificationDeps,
  params: { sessionId: string; customerId: string | null; now?: Date },
): Promise<AwaitedServiceOrder> {
  const state = await deps.store.transaction(async (tx) => {
    const cartId = await tx.openCartId(params.sessionId);
    const kept = cartId ? await tx.loadCheckout(cartId) : null;
    if (!cartId || !kept || kept.sessionId !== params.sessionId) return null;
    return { cartId, keptAt: kept.keptAt, paid: await tx.hasWaitingNotification(cartId) };
  });
  if (!state) return "none";
  if (!state.paid) {
    const age = (params.now ?? new Date()).getTime() - state.keptAt.getTime();
    return age <= AWAIT_WINDOW_MS ? "waiting" : "none";
  }
  // Whatever the setting: the signed notification already proves the payment.
  const result = await makePendingOrder(
    { ...deps, mode: "ready_to_place_order" },
    { sessionId: params.sessionId, customerId: params.customerId, cartId: state.cartId },
    { paymentProven: true },
  );
  return result.ok ? "created" : "waiting";
}

/**
 * How long a guest's pending Service Pay order waits for a notification before the sweep drops
 * it: the payment modal's lifetime (30 minutes, AWAIT_WINDOW_MS) plus a day for late deliveries
 * (contract, Events › Webhook: delivery is expected within about 5 seconds of the payment, and
 * the service retries a delivery that failed, at intervals it does not state).
 */
export const ABANDONED_ORDER_AFTER_MS = AWAIT_WINDOW_MS + 24 * 60 * 60 * 1000;

/**
 * Drops the pending Service Pay orders of guests that no notification named, made more than
 * `afterMs` ago (docs/decisions/abandoned-pending-orders.md): an anonymous session can make one
 * pending order per cart (add to cart, checkout, purchase_data, ready-to-place-order, repeated),
 * each waiting for a payment that never comes; without this they grow without bound. A
 * signed-in customer's order, and any order a notification named, is never dropped. A paid
 * notification arriving after the drop finds no order: it is stored and waits unmatched
 * ("early"), and reconciliation lists it for a person (reconcileServiceOrders), so a payment is
 * never lost. Runs in batches of `batch` orders, one transaction each, until none is left or
 * `max` were dropped; answers how many were.
 */
export async function pruneAbandonedOrders(
  deps: Pick<NotificationDeps, "store" | "statuses">,
  options: { now?: Date; afterMs?: number; batch?: number; max?: number } = {},
): Promise<number> {
  const before = new Date(
    (options.now ?? new Date()).getTime() - (options.afterMs ?? ABANDONED_ORDER_AFTER_MS),
  );
  const batch = options.batch ?? 100;
  const max = options.max ?? 10_000;
  const pending = deps.statuses.forServiceStatus.pending;
  let dropped = 0;
  while (dropped < max) {
    const gone = await deps.store.transaction(async (tx) => {
      const orders = await tx.abandonedOrders(pending, before, batch);
      for (const order of orders) await tx.dropOrder(order);
      return orders.length;
    });
    dropped += gone;
    // Fewer than a batch: nothing more is old enough, or what is left a notification keeps.
    if (gone < batch) break;
  }
  return dropped;
}
