import "server-only";
import type { InspectorSource } from "@service-integration/kit";
import type { Db } from "@/lib/db/client";

/** The inspector drawer's webhook entries: the notifications stored for the session's latest
 *  orders (read from the store, so the webhook's hot path writes nothing extra). */
export function createInspectorSource(db: Db): InspectorSource {
  return {
    async sessionNotifications(sessionId) {
      const orders = await db.order.findMany({
        where: { sessionId },
        orderBy: { createdAt: "desc" },
        take: 10,
        select: { id: true, number: true },
      });
      if (orders.length === 0) return [];
      const numbers = new Map(orders.map((o) => [o.id, o.number]));
      const rows = await db.serviceNotification.findMany({
        where: { orderId: { in: orders.map((o) => o.id) } },
        orderBy: { receivedAt: "asc" },
        take: 50,
      });
      return rows.map((n) => ({
        receivedAt: n.receivedAt,
        event: n.event,
        status: n.status,
        outcome: n.outcome,
        orderNumber: numbers.get(n.orderId ?? "") ?? "?",
      }));
    },
  };
}
