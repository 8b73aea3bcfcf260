// Conformance checks of the back office's order store (ServiceOrderStore).
import { expect } from "vitest";
import { sendOrderUpdate } from "../order-updates.js";
import { receiveNotification } from "../order-webhook.js";
import { deps, notification, orderOf, pendingOrder } from "./conformance-helpers.js";
import type { ConformanceHost } from "./conformance-host.js";

// ---------------------------------------------------------------------------------------------
// The back office's order updates

export async function orderUpdateAgainstCurrent(host: ConformanceHost) {
  const { forServiceStatus, afterUpdate, canTransition } = host.statuses;
  const { payment_completed: paid, completed } = forServiceStatus;
  // An update the paid order may take but the completed one may not (this shop: a partial
  // shipment); a host without one has nothing to check here.
  const types = Object.keys(afterUpdate) as (keyof typeof afterUpdate)[];
  const type = types.find((t) => {
    const after = afterUpdate[t];
    return after !== null && canTransition(paid, after) && !canTransition(completed, after);
  });
  if (!type) return;
  const after = afterUpdate[type] as string;
  const orders = host.orders;
  if (!orders) {
    throw new Error(
      'this host has no ServiceOrderStore (orders): run the suite with { skip: ["order-update-against-current"] }',
    );
  }
  const { cart, cartId, order } = await pendingOrder(host);
  await receiveNotification(deps(host), notification(cart, cartId, "payment_completed"));
  const placed = await orders.order(order.id);
  if (!placed) throw new Error("ServiceOrderStore.order gives no order for a placed order");
  // While the service accepts the admin's update, the order's completed notification lands.
  const result = await sendOrderUpdate(
    {
      orders,
      statuses: host.statuses,
      client: {
        updateOrder: async () => {
          await receiveNotification(deps(host), notification(cart, cartId, "completed"));
          return { ok: true };
        },
      },
    },
    {
      orderId: order.id,
      type,
      quantities: Object.fromEntries(placed.items.map((item) => [item.productId, 1])),
    },
  );
  expect(result.ok, JSON.stringify(result)).toBe(true);
  expect((await orderOf(host, cartId)).status, `not moved back to ${after}`).toBe(completed);
  const history = await host.servicePay.transaction((tx) => tx.statusHistory(order.id));
  expect(history, `history: ${history.join(" ← ")}`).not.toContain(after);
}
