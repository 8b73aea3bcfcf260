import "server-only";
import type { ServiceOrderStore } from "@service-integration/kit";
import { type Db, isPostgres } from "@/lib/db/client";
import { canTransition, HELD_STATUS } from "@/lib/shop/order-status";
import { lockOrders, writeOrderChange } from "@/lib/shop/orders";
import { loadOrderWithItems } from "./trade-in-store";

/** The back office's orders as order updates and reconciliation read and change them. */
export function createServiceOrderStore(db: Db): ServiceOrderStore {
  return {
    order: (orderId) => loadOrderWithItems(db, orderId),
    async changeOrder(order, change) {
      await db.$transaction(async (tx) => {
        // Written against the order as it is now, locked (a notification may have moved it
        // since the caller read it): the history's `from` is true, and a status the order can no
        // longer reach in one step is not forced on it (docs/decisions/concurrent-order-changes.md).
        await lockOrders(tx, isPostgres(db), { id: order.id });
        const current = await tx.order.findUniqueOrThrow({ where: { id: order.id } });
        const keep =
          change.to !== undefined &&
          current.status !== order.status &&
          current.status !== change.to &&
          !canTransition(current.status, change.to);
        await writeOrderChange(tx, current, keep ? { ...change, to: undefined } : change);
      });
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
