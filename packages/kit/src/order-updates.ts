import "server-only";
import { cartOfLines } from "./cart.js";
import type { OrderUpdate, ServiceClient } from "./client.js";
import {
  ServiceApiError,
  ServiceInputError,
  ServiceNetworkError,
  ServiceTimeoutError,
} from "./errors.js";
import type { UpdateType } from "./resources.js";
import type { OrderStatusRules, PlacedOrder, ServiceOrderStore } from "./shop-ports.js";

/**
 * Post-purchase order updates (contract: Endpoints › POST /payments/orders/update; public-docs
 * facts: Post-purchase phase): one call per admin action, recorded in the order's history
 * whatever the answer; what each update type means for the shop's own status, and what a
 * failure means in an admin's words (a 403, 404 or 400 is shown in plain words).
 */

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

/** What sendOrderUpdate needs: the orders, the shop's statuses, the service client. */
export interface OrderUpdateDeps {
  /** The back office's order store (the adapter's `orders`). */
  orders: ServiceOrderStore;
  /** The shop's status rules (afterUpdate: the status an accepted update moves to). */
  statuses: OrderStatusRules;
  /** The service client's orders/update call. */
  client: Pick<ServiceClient, "updateOrder">;
}

/** The admin's answer: what was sent, or why it was not, in words. */
export type OrderUpdateResult =
  | {
      /** The service accepted the update. */
      ok: true;
      /** What was sent, in words. */
      message: string;
    }
  | {
      /** It was not sent or the service refused it. */
      ok: false;
      /** Why, in words for the admin. */
      error: string;
    };

/** What the admin chose: the type, and for partials and cart_update the quantity per product. */
export interface AdminOrderUpdate {
  /** The shop's order id. */
  orderId: string;
  /** The contract's update type (shipped, returned, partial_shipment, partial_return,
   *  cart_update). */
  type: UpdateType;
  /** Partials and cart_update: the quantity per product id. */
  quantities?: Record<string, number>;
}

type LoadedOrder = PlacedOrder;

/** Pure: the request body for an admin's choice (field names: docs/decisions/order-updates.md). */
function buildOrderUpdate(
  order: LoadedOrder,
  serviceOrderId: string,
  choice: AdminOrderUpdate,
): OrderUpdate | { error: string } {
  const base = { order_id: serviceOrderId, update_type: choice.type };
  if (choice.type === "partial_shipment" || choice.type === "partial_return") {
    const items = order.items
      .map((item) => ({ id: item.productId, quantity: choice.quantities?.[item.productId] ?? 0 }))
      .filter((item) => item.quantity > 0);
    if (items.length === 0) return { error: "Choose at least one item and a quantity." };
    return { ...base, items };
  }
  if (choice.type === "cart_update") {
    const cart = cartOfLines({ ...order, id: order.cartId }, choice.quantities);
    if (cart.items.length === 0) {
      return { error: "An updated cart needs at least one item; use Returned for a full return." };
    }
    return { ...base, cart };
  }
  return base;
}

function describeUpdate(order: LoadedOrder, update: OrderUpdate): string {
  const names = new Map(order.items.map((i) => [i.productId, i.name]));
  if (update.items) {
    return update.items.map((i) => `${i.quantity} × ${names.get(i.id) ?? i.id}`).join(", ");
  }
  if (update.cart) {
    return `cart now ${update.cart.items.map((i) => `${i.quantity} × ${i.name}`).join(", ")}`;
  }
  return "whole order";
}

/** Sends the admin's update of a Service Pay order to the service (contract: Endpoints › POST
 *  /payments/orders/update) and, once accepted, moves the order by the shop's statuses. */
export async function sendOrderUpdate(
  deps: OrderUpdateDeps,
  choice: AdminOrderUpdate,
): Promise<OrderUpdateResult> {
  const order = await deps.orders.order(choice.orderId);
  if (!order) return { ok: false, error: "Order not found." };
  const serviceOrderId = serviceOrderIdOf(order);
  if (!serviceOrderId) {
    return {
      ok: false,
      error:
        "The service does not know this order: only Service Pay orders and card orders with a registered trade-in can be updated there.",
    };
  }
  let update: OrderUpdate | { error: string };
  try {
    update = buildOrderUpdate(order, serviceOrderId, choice);
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  if ("error" in update) return { ok: false, error: update.error };
  const what = `${update.update_type} (${describeUpdate(order, update)})`;
  try {
    await deps.client.updateOrder(update);
  } catch (error) {
    const message = orderUpdateErrorMessage(error, serviceOrderId);
    await deps.orders.changeOrder(order, {
      source: "admin",
      note: `Service order update ${what} refused: ${message}`,
    });
    return { ok: false, error: message };
  }
  // The host's own status for this update type (OrderStatusRules.afterUpdate).
  const after = deps.statuses.afterUpdate[update.update_type];
  const to = after && deps.statuses.canTransition(order.status, after) ? after : null;
  await deps.orders.changeOrder(order, {
    ...(to ? { to } : {}),
    source: "admin",
    note: `Service order update ${what} accepted by the service`,
  });
  return {
    ok: true,
    message: `The service accepted the update: ${what}.${after && !to ? ` The shop's status stays ${order.status}.` : ""}`,
  };
}
