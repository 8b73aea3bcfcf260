import { isOrderStatus, nextStatuses, type OrderStatus } from "./order-status";

// How a status sent by the service's order webhook moves one of our orders, on top of the shop's
// transitions in order-status.ts. Contract, Events › Webhook: notifications may be retried and
// arrive out of order, and "Complete set of order status values: not shown".

/** Whether `to` can be reached from `from` by one or more allowed transitions. */
export function canReach(from: OrderStatus, to: OrderStatus): boolean {
  const seen = new Set<OrderStatus>([from]);
  const queue: OrderStatus[] = [from];
  for (let current = queue.shift(); current; current = queue.shift()) {
    for (const next of nextStatuses(current)) {
      if (next === to) return true;
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return false;
}

export type ServiceStatusDecision =
  /** the order takes the incoming status */
  | "apply"
  /** the order already has it: nothing to change */
  | "same"
  /** kept in the notification log only: it would move the order backwards (a late delivery) */
  | "stale";

/**
 * `current` is the order's status; `lastKnown` its latest status we know (the same, unless the
 * service sent one we do not know, in which case the latest known one from the history).
 * - An unknown incoming status is applied: it is stored on the order and shown, never dropped.
 * - A known one is applied only when it lies ahead of the last known status, so `pending` after
 *   `payment_completed` is recorded but never regresses the order; `completed` after `pending`
 *   (the `payment_completed` delivery still on its way) moves it forward at once. After an
 *   unknown status, a known one must lie ahead of the last known one too (a late redelivery of
 *   the status before it must not hide the newer unknown one).
 */
export function decideServiceStatus(
  current: string,
  lastKnown: OrderStatus,
  incoming: string,
): ServiceStatusDecision {
  if (incoming === current) return "same";
  if (!isOrderStatus(incoming)) return "apply";
  return canReach(lastKnown, incoming) ? "apply" : "stale";
}
