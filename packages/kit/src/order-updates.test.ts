import { describe, expect, it } from "vitest";
import {
  ServiceApiError,
  ServiceInputError,
  ServiceNetworkError,
  ServiceTimeoutError,
} from "./errors.js";
import { orderUpdateErrorMessage, sendOrderUpdate, serviceOrderIdOf } from "./order-updates.js";
import type {
  OrderChange,
  OrderStatusRules,
  PlacedOrder,
  ServiceOrderStore,
} from "./shop-ports.js";
import { contractStatusNames } from "./test-support/status-names.js";

const apiError = (status: number, description = "") =>
  new ServiceApiError({
    status,
    method: "POST",
    path: "/payments/orders/update",
    error: "x",
    errorDescription: description,
  });

describe("order updates", () => {
  it("knows which id the service has for an order", () => {
    expect(serviceOrderIdOf({ serviceOrderId: "ord_1", number: "SO-1", tradeInStatus: null })).toBe(
      "ord_1",
    );
    expect(
      serviceOrderIdOf({ serviceOrderId: null, number: "SO-1", tradeInStatus: "registered" }),
    ).toBe("SO-1");
    expect(
      serviceOrderIdOf({ serviceOrderId: null, number: "SO-1", tradeInStatus: "not_applied" }),
    ).toBeNull();
  });

  it("says 403, 404 and 400 in plain words, quoting the service", () => {
    expect(orderUpdateErrorMessage(apiError(403), "ord_1")).toMatch(/lacks the "updates" scope/);
    expect(orderUpdateErrorMessage(apiError(404), "ord_1")).toMatch(/does not know order ord_1/);
    const bad = orderUpdateErrorMessage(apiError(400, "Item p: quantity 2 is more"), "ord_1");
    expect(bad).toMatch(/rejected this update as invalid/);
    expect(bad).toContain("Item p: quantity 2 is more");
  });

  it("warns that a timeout may have been applied, and names a 500's correlation id", () => {
    expect(orderUpdateErrorMessage(new ServiceTimeoutError("POST", "/p", 10_000), "ord_1")).toMatch(
      /may or may not have been applied/,
    );
    expect(
      orderUpdateErrorMessage(
        new ServiceNetworkError("POST", "/p", { cause: new Error("reset") }),
        "ord_1",
      ),
    ).toMatch(/may or may not/);
    expect(
      orderUpdateErrorMessage(apiError(500, "Internal error. correlation id: abc-123"), "o"),
    ).toContain("abc-123");
    expect(orderUpdateErrorMessage(new ServiceInputError("orders/update", "bad"), "o")).toMatch(
      /not sent/,
    );
  });
});

describe("sendOrderUpdate writes the host's own status names", () => {
  // A host whose orders go paid → part_dispatched → dispatched, and back as sent_back.
  const rules: OrderStatusRules = {
    ...contractStatusNames,
    afterUpdate: {
      shipped: "dispatched",
      returned: "sent_back",
      partial_shipment: "part_dispatched",
      partial_return: null,
      cart_update: null,
    },
    isKnown: () => true,
    canReach: () => true,
    canTransition: (from, to) => !(from === "dispatched" && to === "part_dispatched"),
    isPaidOrLater: () => true,
    held: "on_hold",
  };
  const placed = (status: string): PlacedOrder => ({
    id: "o1",
    number: "SO-1",
    cartId: "c1",
    sessionId: "s1",
    customerId: null,
    status,
    serviceOrderId: "ord_1",
    paymentMethod: "service_pay",
    currency: "EUR",
    price: 2_000,
    tax: 0,
    shippingPrice: 0,
    discountTotal: 0,
    tradeInDiscount: 0,
    total: 2_000,
    tradeInStatus: null,
    tradeInMessage: null,
    valuationState: "none",
    valuationItemId: null,
    valuationValue: null,
    valuationCurrency: null,
    valuationNote: null,
    items: [
      {
        productId: "p1",
        name: "Phone",
        description: "",
        url: "https://shop.test/p1",
        quantity: 2,
        price: 1_000,
        tax: 0,
      },
    ],
    delivery: { id: "standard", name: "Standard", price: 0, url: "https://shop.test/delivery" },
  });
  const run = async (
    status: string,
    choice: {
      type: "shipped" | "partial_shipment" | "partial_return";
      quantities?: Record<string, number>;
    },
  ) => {
    const changes: OrderChange[] = [];
    const orders: ServiceOrderStore = {
      order: async () => placed(status),
      changeOrder: async (_order, change) => {
        changes.push(change);
      },
      findOrders: async () => [],
      needsAttention: async () => ({ held: [], reusedNotificationIds: [] }),
    };
    const result = await sendOrderUpdate(
      { orders, statuses: rules, client: { updateOrder: async () => ({}) } },
      { orderId: "o1", ...choice },
    );
    return { result, changes };
  };

  it("moves the order to the host's status for the update type", async () => {
    expect((await run("paid", { type: "shipped" })).changes[0]?.to).toBe("dispatched");
    const partial = await run("paid", { type: "partial_shipment", quantities: { p1: 1 } });
    expect(partial.changes[0]?.to).toBe("part_dispatched");
  });

  it("keeps the status when the host maps the type to none or cannot take it in one step", async () => {
    const none = await run("dispatched", { type: "partial_return", quantities: { p1: 1 } });
    expect(none.result.ok).toBe(true);
    expect(none.changes[0]?.to).toBeUndefined();
    const backwards = await run("dispatched", { type: "partial_shipment", quantities: { p1: 1 } });
    expect(backwards.changes[0]?.to).toBeUndefined();
    expect(backwards.result).toMatchObject({
      ok: true,
      message: expect.stringMatching(/stays dispatched/),
    });
  });
});
