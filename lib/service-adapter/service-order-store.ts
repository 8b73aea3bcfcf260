import "server-only";
import type { Db } from "@/lib/db/client";
import type { ServiceOrderStore } from "@/lib/service/shop-ports";
import { writeOrderChange } from "@/lib/shop/orders";
import { loadOrderWithItems } from "./trade-in-store";

/** The back office's orders as order updates and reconciliation read and change them. */
export function createServiceOrderStore(db: Db): ServiceOrderStore {
  return {
    order: (orderId) => loadOrderWithItems(db, orderId),
    async changeOrder(order, change) {
      await db.$transaction((tx) => writeOrderChange(tx, order, change));
    },
    findOrders(serviceOrderIds, cartIds) {
      return db.order.findMany({
        where: { OR: [{ serviceOrderId: { in: serviceOrderIds } }, { cartId: { in: cartIds } }] },
      });
    },
  };
}
