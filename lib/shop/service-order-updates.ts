import type { Db } from "@/lib/db/client";
import type { Cart } from "@/lib/service/cart";
import { cartOfLines } from "@/lib/service/cart";
import type { OrderUpdate, ServiceClient } from "@/lib/service/client";
import {
  LOCAL_STATUS_AFTER,
  orderUpdateErrorMessage,
  serviceOrderIdOf,
} from "@/lib/service/order-updates";
import type { UpdateType } from "@/lib/service/resources";
import { canTransition } from "./order-status";

// The back office's post-purchase actions (issue #6, item 3): one call of
// POST /payments/orders/update per admin action, recorded in the order's history whatever the
// answer, and the shop's status moved where the update says (order-updates.ts).

export interface OrderUpdateDeps {
  db: Db;
  client: Pick<ServiceClient, "updateOrder">;
}

export type OrderUpdateResult = { ok: true; message: string } | { ok: false; error: string };

/** What the admin chose: the type, and for partials and cart_update the quantity per product. */
export interface AdminOrderUpdate {
  orderId: string;
  type: UpdateType;
  quantities?: Record<string, number>;
}

type LoadedOrder = NonNullable<Awaited<ReturnType<typeof loadOrder>>>;

function loadOrder(db: Db, id: string) {
  return db.order.findUnique({ where: { id }, include: { items: true } });
}

/** Pure: the request body for an admin's choice (field names: lib/service/README.md). */
export function buildOrderUpdate(
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
    return { ...base, cart: cart as Cart };
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

export async function sendOrderUpdate(
  deps: OrderUpdateDeps,
  choice: AdminOrderUpdate,
): Promise<OrderUpdateResult> {
  const order = await loadOrder(deps.db, choice.orderId);
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
    await record(deps.db, order, null, `Service order update ${what} refused: ${message}`);
    return { ok: false, error: message };
  }
  const after = LOCAL_STATUS_AFTER[update.update_type];
  const to = after && canTransition(order.status, after) ? after : null;
  await record(deps.db, order, to, `Service order update ${what} accepted by the service`);
  return {
    ok: true,
    message: `The service accepted the update: ${what}.${after && !to ? ` The shop's status stays ${order.status}.` : ""}`,
  };
}

async function record(db: Db, order: LoadedOrder, to: string | null, note: string) {
  await db.$transaction(async (tx) => {
    if (to) await tx.order.update({ where: { id: order.id }, data: { status: to } });
    await tx.orderStatusChange.create({
      data: {
        orderId: order.id,
        from: order.status,
        to: to ?? order.status,
        source: "admin",
        note: note.slice(0, 1000),
      },
    });
  });
}
