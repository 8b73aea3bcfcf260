import type { Db, Tx } from "@/lib/db/client";
import { loadCartWith } from "./cart";
import { createServicePendingOrder } from "./service-orders";

// The confirmation page ({merchant_success_url}) when the shopper arrives from the service's
// payment modal but the Service Pay order is not there: the pending order is created by the
// page's ready-to-place-order listener, and that call can fail or come late; with
// SERVICE_ORDER_CREATION=webhook the order only exists once the webhook landed.

/** How long after the details were kept the page waits for an order (the modal's lifetime). */
const AWAIT_WINDOW_MS = 30 * 60 * 1000;

export type AwaitedServiceOrder =
  /** no Service Pay payment in progress for this session */
  | "none"
  /** details kept, no signed notification yet: wait (the page refreshes itself) */
  | "waiting"
  /** a signed notification for the cart was waiting: the order was created now */
  | "created";

/**
 * A signed notification for the session's open cart proves the service took the payment, so
 * the order is created from the details kept at payment start (idempotent by cart id; the
 * waiting notification is applied in the same transaction). Without one, the page only waits:
 * a shopper who closed the modal without paying must keep the cart.
 */
export async function settleAwaitedServiceOrder(
  db: Db,
  params: { sessionId: string; customerId: string | null; shopBaseUrl: string; now?: Date },
): Promise<AwaitedServiceOrder> {
  const cart = await loadCartWith(db as unknown as Tx, params.sessionId);
  if (!cart || cart.lines.length === 0) return "none";
  const saved = await db.serviceCheckout.findUnique({ where: { cartId: cart.id } });
  if (!saved || saved.sessionId !== params.sessionId) return "none";
  const paid = await db.serviceNotification.findFirst({
    where: { cartId: cart.id, orderId: null },
    select: { id: true },
  });
  if (!paid) {
    const age = (params.now ?? new Date()).getTime() - saved.updatedAt.getTime();
    return age <= AWAIT_WINDOW_MS ? "waiting" : "none";
  }
  const result = await createServicePendingOrder(db, {
    sessionId: params.sessionId,
    customerId: params.customerId,
    cartId: cart.id,
    shopBaseUrl: params.shopBaseUrl,
    // Whatever the setting: the signed notification already proves the payment.
    mode: "ready_to_place_order",
  });
  return result.ok ? "created" : "waiting";
}
