import { ServiceApiError } from "@service-integration/kit";
import type { OrderUpdate } from "@service-integration/kit/server";
import { type OrderUpdateDeps, sendOrderUpdate } from "@service-integration/kit/server";
import { describe, expect, it, vi } from "vitest";
import { randomHex32 } from "@/lib/session/session-data";
import { addToCart } from "@/lib/shop/cart";
import { placeCardOrder } from "@/lib/shop/orders";
import { TEST_CARDS } from "@/lib/shop/test-card";
import { cardCheckoutInput } from "@/test-support/checkout";
import { setUpTestDb } from "@/test-support/test-db";
import { withHistory } from "@/test-support/test-shop";
import { orderWriter, serviceAdapter } from "./service";
import { shopOrderStatuses } from "./shop-callbacks";

const shop = setUpTestDb();
const deps = (updates: OrderUpdateDeps["client"]): OrderUpdateDeps => ({
  orders: serviceAdapter(shop.db).orders,
  statuses: shopOrderStatuses,
  client: updates,
});

async function serviceOrder(serviceOrderId: string | null = "ord_1") {
  const sessionId = randomHex32();
  await addToCart({ sessionId, currency: "EUR", productId: shop.products.phone.id, quantity: 2 });
  await addToCart({ sessionId, currency: "EUR", productId: shop.products.buds.id, quantity: 1 });
  const placed = await placeCardOrder(orderWriter(shop.db), {
    sessionId,
    customerId: null,
    shopBaseUrl: "http://shop.test",
    input: { ...cardCheckoutInput(TEST_CARDS.success), shippingMethod: "standard" },
  });
  if (!placed.ok) throw new Error(placed.error);
  await shop.db.order.update({ where: { id: placed.orderId }, data: { serviceOrderId } });
  return placed.orderId;
}

function client(fail?: ServiceApiError) {
  const sent: OrderUpdate[] = [];
  return {
    sent,
    client: {
      updateOrder: vi.fn(async (u: OrderUpdate) => {
        sent.push(u);
        if (fail) throw fail;
        return { ok: true };
      }),
    },
  };
}

describe("sendOrderUpdate", () => {
  it("sends a partial shipment of the chosen items and moves the status", async () => {
    const orderId = await serviceOrder();
    const c = client();
    const result = await sendOrderUpdate(deps(c.client), {
      orderId,
      type: "partial_shipment",
      quantities: { [shop.products.phone.id]: 1 },
    });
    expect(result.ok).toBe(true);
    expect(c.sent).toEqual([
      {
        order_id: "ord_1",
        update_type: "partial_shipment",
        items: [{ id: shop.products.phone.id, quantity: 1 }],
      },
    ]);
    const order = await withHistory(
      shop.db,
      await shop.db.order.findUniqueOrThrow({ where: { id: orderId } }),
    );
    expect(order.status).toBe("partially_shipped");
    expect(order.history.at(-1)?.note).toMatch(/partial_shipment \(1 × PHONE\) accepted/);
  });

  it("sends the edited cart for cart_update, dropping lines set to 0, status kept", async () => {
    const orderId = await serviceOrder("ord_2");
    const c = client();
    await sendOrderUpdate(deps(c.client), {
      orderId,
      type: "cart_update",
      quantities: { [shop.products.phone.id]: 1, [shop.products.buds.id]: 0 },
    });
    const cart = c.sent[0]?.cart;
    // The delivery the order charged stays a line of the edited cart.
    expect(cart?.items.map((i) => [i.id, i.quantity])).toEqual([
      [shop.products.phone.id, 1],
      ["delivery:standard", 1],
    ]);
    expect(cart?.total).toBe(66033 + 13867 + 499);
    const order = await shop.db.order.findUniqueOrThrow({ where: { id: orderId } });
    expect(order.status).toBe("payment_completed");
  });

  it("records a refusal in the history, keeps the status and says it plainly", async () => {
    const orderId = await serviceOrder("ord_3");
    const c = client(
      new ServiceApiError({ status: 403, method: "POST", path: "/payments/orders/update" }),
    );
    const result = await sendOrderUpdate(deps(c.client), { orderId, type: "shipped" });
    expect(result).toEqual({ ok: false, error: expect.stringContaining('"updates" scope') });
    const order = await withHistory(
      shop.db,
      await shop.db.order.findUniqueOrThrow({ where: { id: orderId } }),
    );
    expect(order.status).toBe("payment_completed");
    expect(order.history.some((h) => h.note.includes("shipped (whole order) refused"))).toBe(true);
  });

  it("refuses before sending when the service does not know the order, or nothing is chosen", async () => {
    const unknown = await serviceOrder(null);
    const c = client();
    const a = await sendOrderUpdate(deps(c.client), { orderId: unknown, type: "shipped" });
    expect(a.ok).toBe(false);
    const known = await serviceOrder("ord_4");
    const b = await sendOrderUpdate(deps(c.client), {
      orderId: known,
      type: "partial_return",
      quantities: {},
    });
    expect(b).toEqual({ ok: false, error: "Choose at least one item and a quantity." });
    expect(c.sent).toHaveLength(0);
  });

  it("writes against the order as it is when a notification moved it during the call", async () => {
    const orderId = await serviceOrder("ord_5");
    const c = client();
    // The service's `completed` arrives while the admin's `shipped` is on its way to the service.
    c.client.updateOrder.mockImplementationOnce(async (u: OrderUpdate) => {
      c.sent.push(u);
      await shop.db.$transaction(async (tx) =>
        serviceAdapter(shop.db).writeOrderChange(
          tx,
          {
            ...(await tx.order.findUniqueOrThrow({ where: { id: orderId } })),
            status: "payment_completed",
          },
          { to: "completed", source: "service", note: "completed meanwhile" },
        ),
      );
      return { ok: true };
    });
    const result = await sendOrderUpdate(deps(c.client), { orderId, type: "shipped" });
    expect(result.ok).toBe(true);
    const order = await withHistory(
      shop.db,
      await shop.db.order.findUniqueOrThrow({ where: { id: orderId } }),
    );
    // Not moved back from completed to shipped, and the history says what it really was.
    expect(order.status).toBe("completed");
    const last = order.history.find((h) => h.note.includes("shipped (whole order) accepted"));
    expect(last).toMatchObject({ from: "completed", to: "completed", source: "admin" });
  });
});

describe("this shop's status names for the service's statuses and update types", () => {
  it("maps each to a status the shop knows (cart_update keeps it), in the order the service uses", () => {
    const { forServiceStatus, afterUpdate, isKnown, canReach } = shopOrderStatuses;
    for (const status of [...Object.values(forServiceStatus), ...Object.values(afterUpdate)]) {
      if (status !== null) expect(isKnown(status)).toBe(true);
    }
    expect(afterUpdate.partial_shipment).toBe("partially_shipped");
    expect(afterUpdate.partial_return).toBe("partially_returned");
    expect(afterUpdate.cart_update).toBeNull();
    expect(canReach(forServiceStatus.pending, forServiceStatus.payment_completed)).toBe(true);
    expect(canReach(forServiceStatus.payment_completed, forServiceStatus.completed)).toBe(true);
  });
});
