import type { OrderStatusRules } from "../shop-ports.js";

/** A host that keeps the contract's own status names and names its update states after them. */
export const contractStatusNames: Pick<OrderStatusRules, "forServiceStatus" | "afterUpdate"> = {
  forServiceStatus: {
    pending: "pending",
    payment_completed: "payment_completed",
    completed: "completed",
  },
  afterUpdate: {
    shipped: "shipped",
    returned: "returned",
    partial_shipment: "partially_shipped",
    partial_return: "partially_returned",
    cart_update: null,
  },
};
