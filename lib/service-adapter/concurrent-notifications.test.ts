import { parseOrderNotification } from "@service-integration/kit";
import { createNotificationInbox, receiveNotification } from "@service-integration/kit/server";
import { describe, expect, it } from "vitest";
import { seedPendingServicePayOrder, setUpTestShop, withHistory } from "@/test-support/test-shop";
import { serviceAdapter, servicePayDeps } from "./service";

// Two different notifications for one order handled at the same moment (two webhook deliveries
// on two connections): the order change is decided against the locked order
// (ServicePayTx.findOrderFor, docs/decisions/concurrent-order-changes.md), so the order ends on
// the later status whichever commits first, and its history is one chain of transitions.

const shop = setUpTestShop();
const ROUNDS = 25;

const pendingOrder = () => seedPendingServicePayOrder(shop);

function notification(cartId: string, id: string, status: string) {
  const body = JSON.stringify({
    id,
    event: `order.${status}`,
    order_id: `ord_${cartId}`,
    cart_id: cartId,
    status,
    amount: 12300 + 1499, // items, tax and the express delivery: the Cart's total
    currency: "EUR",
    trade_in_discount: 1500,
  });
  return parseOrderNotification(new TextEncoder().encode(body));
}

function notify(cartId: string, id: string, status: string) {
  return receiveNotification(servicePayDeps(), notification(cartId, id, status));
}

describe("two notifications for one order at the same moment", () => {
  for (let round = 0; round < ROUNDS; round++) {
    it(`end on the later status with one chain of history (round ${round})`, async () => {
      const { cartId, order } = await pendingOrder();
      // Alternate which one starts first, so neither order of arrival is favoured.
      const sends = [
        () => notify(cartId, `wh_paid_${round}`, "payment_completed"),
        () => notify(cartId, `wh_done_${round}`, "completed"),
      ];
      if (round % 2 === 1) sends.reverse();
      const receipts = await Promise.all(sends.map((send) => send()));
      expect(receipts.map((r) => r.outcome)).toContain("applied");

      const after = await withHistory(
        shop.db,
        await shop.db.order.findUniqueOrThrow({ where: { id: order.id } }),
      );
      expect(after.status, `round ${round}`).toBe("completed");
      expect(after.tradeInDiscount).toBe(1500);
      const transitions = after.history
        .filter((line) => line.source === "service")
        .map((line) => `${line.from}→${line.to}`)
        .sort();
      // payment_completed first: two steps; completed first: one step, and the late
      // payment_completed is kept in the notification log only (contract: Events, out of order).
      expect(
        [["payment_completed→completed", "pending→payment_completed"], ["pending→completed"]],
        `round ${round}: ${transitions.join(", ")}`,
      ).toContainEqual(transitions);

      // Each notification stored once and tied to the order.
      const stored = await shop.db.serviceNotification.findMany({ where: { cartId } });
      expect(stored).toHaveLength(2);
      expect(stored.every((n) => n.orderId === order.id)).toBe(true);
    });
  }
});

// The webhook's store-then-apply path (docs/decisions/webhook-storage.md): two instances' inboxes
// each answer one of the two after storing it and apply it right after; the end is the same.
describe("two notifications for one order stored by two instances at the same moment", () => {
  for (let round = 0; round < 6; round++) {
    it(`end on the later status with one chain of history (round ${round})`, async () => {
      const { cartId, order } = await pendingOrder();
      const inboxes = [0, 1].map(() =>
        createNotificationInbox({
          ...servicePayDeps(),
          store: serviceAdapter(shop.db).servicePay,
        }),
      );
      const sent = [
        notification(cartId, `wh_inbox_paid_${round}`, "payment_completed"),
        notification(cartId, `wh_inbox_done_${round}`, "completed"),
      ];
      if (round % 2 === 1) sent.reverse();
      const answers = await Promise.all(sent.map((n, i) => inboxes[i]?.receive(n)));
      expect(answers).toEqual(["stored", "stored"]);
      // Applied right after the answers, as a reader of the order sees it.
      await expect
        .poll(async () =>
          (await shop.db.serviceNotification.findMany({ where: { cartId } })).map((n) => n.outcome),
        )
        .not.toContain("stored");
      const after = await withHistory(
        shop.db,
        await shop.db.order.findUniqueOrThrow({ where: { id: order.id } }),
      );
      expect(after.status, `round ${round}`).toBe("completed");
      const transitions = after.history
        .filter((line) => line.source === "service")
        .map((line) => `${line.from}→${line.to}`)
        .sort();
      expect(
        [["payment_completed→completed", "pending→payment_completed"], ["pending→completed"]],
        `round ${round}: ${transitions.join(", ")}`,
      ).toContainEqual(transitions);
    });
  }
});
