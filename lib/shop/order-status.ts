// Order statuses and their allowed transitions, in one place. The contract names
// `pending`, `payment_completed` and `completed` and leaves the full set and the transitions
// open ("Order status ... Transitions: not shown"); the rest is what a shop needs, including the
// partial states that mirror the order-update types `partial_shipment` and `partial_return`.

export const ORDER_STATUSES = [
  "pending",
  /** a payment notification did not match the order (amount, currency, discount): a person decides */
  "payment_mismatch",
  "payment_completed",
  "partially_shipped",
  "shipped",
  "completed",
  "partially_returned",
  "returned",
  "cancelled",
] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The status an order is held in when a payment does not match it. */
export const HELD_STATUS = "payment_mismatch" satisfies OrderStatus;

/** Statuses that mean the payment is known and matched here: all but pending, held and cancelled. */
export const PAID_OR_LATER: ReadonlySet<string> = new Set(
  ORDER_STATUSES.filter(
    (status) => status !== "pending" && status !== HELD_STATUS && status !== "cancelled",
  ),
);

const TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ["payment_completed", "payment_mismatch", "cancelled"],
  payment_mismatch: ["payment_completed", "cancelled"],
  payment_completed: ["partially_shipped", "shipped", "completed", "cancelled"],
  partially_shipped: ["shipped", "cancelled"],
  shipped: ["completed", "partially_returned", "returned"],
  completed: ["partially_returned", "returned"],
  partially_returned: ["returned"],
  returned: [],
  cancelled: [],
};

export const STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Pending payment",
  payment_mismatch: "Held: payment does not match",
  payment_completed: "Paid",
  partially_shipped: "Partially shipped",
  shipped: "Shipped",
  completed: "Completed",
  partially_returned: "Partially returned",
  returned: "Returned",
  cancelled: "Cancelled",
};

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === "string" && (ORDER_STATUSES as readonly string[]).includes(value);
}

/** A status from the service that we do not know is stored as is and shown verbatim. */
export function statusLabel(status: string): string {
  return isOrderStatus(status) ? STATUS_LABELS[status] : `Unknown (${status})`;
}

export function nextStatuses(from: string): readonly OrderStatus[] {
  return isOrderStatus(from) ? TRANSITIONS[from] : [];
}

/**
 * What a back-office user may set by hand. A Service Pay order is paid only when the service's
 * signed notification says so (contract, Events › Webhook: the webhook confirms the order), so
 * "Paid" is never offered, nor accepted, for one.
 */
export function manualNextStatuses(order: {
  status: string;
  paymentMethod: string;
}): readonly OrderStatus[] {
  return nextStatuses(order.status).filter(
    (to) => !(order.paymentMethod === "service_pay" && to === "payment_completed"),
  );
}

export function canTransition(from: string, to: string): boolean {
  return isOrderStatus(to) && nextStatuses(from).includes(to);
}

export function isFinal(status: string): boolean {
  return isOrderStatus(status) && TRANSITIONS[status].length === 0;
}

/** Whether `to` can be reached from `from` by one or more allowed transitions. */
export function canReach(from: string, to: string): boolean {
  if (!isOrderStatus(from) || !isOrderStatus(to)) return false;
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
