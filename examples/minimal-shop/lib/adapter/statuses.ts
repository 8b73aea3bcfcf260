import type { OrderStatusRules } from "@service-integration/kit";
import { canReach, TRANSITIONS } from "../shop";

/** The shop's own status names for what the service reports (shop-ports.ts OrderStatusRules). */
export const miniOrderStatuses: OrderStatusRules = {
  forServiceStatus: {
    pending: "awaiting_payment",
    payment_completed: "paid",
    completed: "complete",
  },
  afterUpdate: {
    shipped: "shipped",
    returned: "returned",
    partial_shipment: null,
    partial_return: null,
    cart_update: null,
  },
  isKnown: (status) => status in TRANSITIONS,
  canReach,
  canTransition: (from, to) => (TRANSITIONS[from] ?? []).includes(to),
  isPaidOrLater: (status) => ["paid", "shipped", "complete", "returned"].includes(status),
  held: "on_hold",
};
