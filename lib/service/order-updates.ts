import {
  ServiceApiError,
  ServiceInputError,
  ServiceNetworkError,
  ServiceTimeoutError,
} from "./errors";
import type { UpdateType } from "./resources";

/**
 * Post-purchase order updates (contract: Endpoints › POST /payments/orders/update; public-docs
 * facts: Post-purchase phase). Pure: what each update type means for the shop's own status, and
 * what a failure means in an admin's words (issue #6, item 3: "a 403, 404 or 400 is shown to the
 * admin in plain words").
 */

/** The shop status an accepted update moves the order to; `cart_update` keeps the status. */
export const LOCAL_STATUS_AFTER: Record<UpdateType, string | null> = {
  shipped: "shipped",
  returned: "returned",
  partial_shipment: "partially_shipped",
  partial_return: "partially_returned",
  cart_update: null,
};

export const UPDATE_TYPE_LABELS: Record<UpdateType, string> = {
  shipped: "Shipped (whole order)",
  returned: "Returned (whole order)",
  partial_shipment: "Partial shipment",
  partial_return: "Partial return",
  cart_update: "Cart update",
};

/**
 * The order id the service knows an order by: the service's own id for a Service Pay order (from
 * its webhook), or, for a card order whose trade-in was registered, the shop's order number, which
 * register-purchase sent as `order_id`. null when the service has no such order.
 */
export function serviceOrderIdOf(order: {
  serviceOrderId: string | null;
  number: string;
  tradeInStatus: string | null;
}): string | null {
  if (order.serviceOrderId) return order.serviceOrderId;
  return order.tradeInStatus === "registered" ? order.number : null;
}

/** An admin-readable sentence for a failed update; nothing was changed locally. */
export function orderUpdateErrorMessage(error: unknown, serviceOrderId: string): string {
  if (error instanceof ServiceApiError) {
    const said = error.errorDescription ? ` The service said: “${error.errorDescription}”` : "";
    switch (error.status) {
      case 403:
        return `The service refused the update: the shop's API user is not allowed to update orders (it lacks the "updates" scope). Ask the service to grant it, then try again.${said}`;
      case 404:
        return `The service does not know order ${serviceOrderId}, so nothing was updated. Check the service order id on this page.${said}`;
      case 400:
        return `The service rejected this update as invalid, so nothing was updated. Check the items and quantities.${said}`;
      case 429:
      case 503:
        return "The service is busy or down for maintenance; nothing was updated. Try again in a minute.";
      default:
        return `The service failed with status ${error.status}; nothing was recorded here.${error.correlationId ? ` Quote correlation id ${error.correlationId} to support.` : ""}`;
    }
  }
  if (error instanceof ServiceTimeoutError || error instanceof ServiceNetworkError) {
    return "No answer from the service. The update may or may not have been applied there: check the order at the service before repeating it.";
  }
  if (error instanceof ServiceInputError) {
    return `This update breaks the service's rules, so it was not sent: ${error.message}`;
  }
  return "The update could not be sent to the service.";
}
