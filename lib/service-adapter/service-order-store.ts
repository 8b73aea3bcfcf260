import "server-only";
import type { Db } from "@/lib/db/client";
import type { ServiceOrderStore } from "@/lib/service/shop-ports";
import { HELD_STATUS } from "@/lib/shop/order-status";
import { writeOrderChange } from "@/lib/shop/orders";
import { loadOrderWithItems } from "./trade-in-store";

/** The back office's orders as order updates and reconciliation read and change them. */
export function createServiceOrderStore(db: Db): ServiceOrderStore {
  return {
    order: (orderId) => loadOrderWithItems(db, orderId),
    async changeOrder(order, change) {
      await db.$transaction((tx) => writeOrderChange(tx, order, change));
    },
    async needsAttention() {
      const held = await db.order.findMany({
        where: { status: HELD_STATUS },
        orderBy: { createdAt: "asc" },
        take: 100,
        include: {
          history: {
            where: { to: HELD_STATUS },
            orderBy: [{ createdAt: "desc" }, { id: "desc" }],
            take: 1,
            select: { note: true },
          },
        },
      });
      const reused = await db.serviceNotification.groupBy({
        by: ["notificationId"],
        where: { notificationId: { not: null } },
        having: { notificationId: { _count: { gt: 1 } } },
        orderBy: { notificationId: "asc" },
        take: 100,
      });
      return {
        held: held.map(({ history, ...order }) => ({
          ...order,
          heldBecause: history[0]?.note ?? "",
        })),
        reusedNotificationIds: reused.flatMap((r) => (r.notificationId ? [r.notificationId] : [])),
      };
    },
    findOrders(serviceOrderIds, cartIds) {
      return db.order.findMany({
        where: { OR: [{ serviceOrderId: { in: serviceOrderIds } }, { cartId: { in: cartIds } }] },
      });
    },
  };
}
