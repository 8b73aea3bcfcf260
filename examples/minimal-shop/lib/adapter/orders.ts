import "server-only";
import type { OrderChange, PlacedOrder, ShopOrder } from "@service-integration/kit";
import { db } from "../db";
import { orderById, recordHistory, SHIPPING } from "../shop";

// Orders as the kit reads and changes them (ShopOrder, PlacedOrder, OrderChange).

export const shopBaseUrl = () => process.env.MINI_SHOP_URL ?? "http://localhost:5510";
export const productUrl = (productId: string) => `${shopBaseUrl()}/#${productId}`;

export function delivery(price: number = SHIPPING.price) {
  return { id: SHIPPING.id, name: SHIPPING.name, price, url: `${shopBaseUrl()}/` };
}

/** The one writer of an order's changes: status, service id, discount (total re-derived),
 *  trade-in state, and a history line. Inside the caller's transaction. */
export function changeOrder(order: ShopOrder, change: OrderChange): ShopOrder {
  const discount = change.tradeInDiscount ?? order.tradeInDiscount;
  const to = change.to ?? order.status;
  db()
    .prepare(
      `UPDATE orders SET status = ?, tradeInDiscount = ?, total = price + tax + shippingPrice - ?,
        serviceOrderId = COALESCE(?, serviceOrderId), tradeInStatus = COALESCE(?, tradeInStatus),
        tradeInMessage = CASE WHEN ? THEN ? ELSE tradeInMessage END WHERE id = ?`,
    )
    .run(
      to,
      discount,
      discount,
      change.serviceOrderId ?? null,
      change.tradeInStatus ?? null,
      change.tradeInMessage !== undefined ? 1 : 0,
      change.tradeInMessage ?? null,
      order.id,
    );
  recordHistory(order.id, order.status, to, change.source, change.note);
  return orderById(order.id) as ShopOrder;
}

export function placedOrder(orderId: string): PlacedOrder | null {
  const order = orderById(orderId);
  if (!order) return null;
  const items = db()
    .prepare(
      "SELECT productId, name, description, url, quantity, price, tax FROM order_items WHERE orderId = ?",
    )
    .all(orderId) as PlacedOrder["items"];
  return { ...order, items, delivery: delivery(order.shippingPrice) };
}
