import { describe, expect, it, vi } from "vitest";
import { readOrderCreationMode } from "./config.js";
import {
  createWebhookSecretSource,
  decideServiceStatus,
  planNotification,
  receiveOrderWebhook,
} from "./order-webhook.js";
import type { OrderStatusRules, ServicePayStore, ShopOrder } from "./shop-ports.js";
import { contractStatusNames } from "./test-support/status-names.js";
import { signWebhookBody } from "./webhook-signature.js";

// The receiver's checks that come before any database work; the stored and applied paths are
// covered through the route in app/api/service/webhooks/order/route.test.ts.

const body = new TextEncoder().encode(
  JSON.stringify({ id: "wh_1", cart_id: "c1", status: "payment_completed" }),
);
// A store that fails the test if touched: a refused delivery must change nothing.
const untouchable: ServicePayStore = {
  transaction() {
    throw new Error("the database must not be touched");
  },
  openCartCheckout() {
    throw new Error("the database must not be touched");
  },
};
const statuses: OrderStatusRules = {
  ...contractStatusNames,
  isKnown: () => true,
  canReach: () => true,
  canTransition: () => true,
  isPaidOrLater: () => false,
  held: "payment_mismatch",
};
const deps = (get: (fresh?: boolean) => Promise<string>) => ({
  store: untouchable,
  statuses,
  secret: { get },
  mode: "ready_to_place_order" as const,
  shopBaseUrl: "http://shop.test",
});

describe("receiveOrderWebhook before storage", () => {
  it("answers 403 without a signature and without asking for the secret", async () => {
    const get = vi.fn(async () => "u-m");
    expect((await receiveOrderWebhook(body, null, deps(get))).status).toBe(403);
    expect(get).not.toHaveBeenCalled();
  });

  it("re-reads the secret once on a mismatch, then answers 403", async () => {
    const get = vi.fn(async () => "u-m");
    const forged = signWebhookBody(body, "client-secret");
    const res = await receiveOrderWebhook(body, forged, deps(get));
    expect(res).toEqual({ status: 403, body: expect.objectContaining({ error: "forbidden" }) });
    expect(get.mock.calls).toEqual([[], [true]]);
  });

  it("accepts a signature made with a secret that changed since it was cached", async () => {
    const get = vi.fn(async (fresh?: boolean) => (fresh ? "u2-m" : "u1-m"));
    const signature = signWebhookBody(body, "u2-m");
    // It gets past the signature to storage, which this stand-in database refuses (a 403 would
    // resolve instead).
    await expect(receiveOrderWebhook(body, signature, deps(get))).rejects.toThrow(
      /must not be touched/,
    );
  });

  it("answers 503, not 403 or 200, when the secret cannot be learnt", async () => {
    const get = vi.fn(async () => {
      throw new Error("ECONNREFUSED");
    });
    const res = await receiveOrderWebhook(body, "a".repeat(64), deps(get));
    expect(res.status).toBe(503);
  });

  it("answers 400 to a validly signed body that is not JSON", async () => {
    const raw = new TextEncoder().encode("{oops");
    const res = await receiveOrderWebhook(
      raw,
      signWebhookBody(raw, "u-m"),
      deps(async () => "u-m"),
    );
    expect(res).toEqual({ status: 400, body: expect.objectContaining({ error: "bad_request" }) });
  });
});

describe("createWebhookSecretSource", () => {
  it("builds <user_id>-<merchant_id>, caches it, and does not cache a failure", async () => {
    let calls = 0;
    const source = createWebhookSecretSource(async () => {
      calls += 1;
      if (calls === 1) throw new Error("no token yet");
      return { userId: "u", merchantId: "m" };
    });
    await expect(source.get()).rejects.toThrow("no token yet");
    expect(await source.get()).toBe("u-m");
    expect(await source.get()).toBe("u-m");
    expect(calls).toBe(2);
    expect(await source.get(true)).toBe("u-m");
    expect(calls).toBe(3);
  });
});

describe("readOrderCreationMode", () => {
  it("defaults to ready_to_place_order, accepts webhook and refuses anything else", () => {
    expect(readOrderCreationMode({})).toBe("ready_to_place_order");
    expect(readOrderCreationMode({ SERVICE_ORDER_CREATION: "" })).toBe("ready_to_place_order");
    expect(readOrderCreationMode({ SERVICE_ORDER_CREATION: "webhook" })).toBe("webhook");
    expect(() => readOrderCreationMode({ SERVICE_ORDER_CREATION: "later" })).toThrow(
      /SERVICE_ORDER_CREATION/,
    );
  });
});

describe("decideServiceStatus", () => {
  // A shop whose statuses run pending → payment_completed → completed.
  const order = ["pending", "payment_completed", "completed"];
  const rules: OrderStatusRules = {
    ...contractStatusNames,
    isKnown: (status) => order.includes(status),
    canReach: (from, to) => order.indexOf(to) > order.indexOf(from),
    canTransition: (from, to) => order.indexOf(to) === order.indexOf(from) + 1,
    isPaidOrLater: (status) => order.indexOf(status) > 0,
    held: "payment_mismatch",
  };
  const decide = (current: string, lastKnown: string, incoming: string) =>
    decideServiceStatus(current, lastKnown, incoming, rules);

  it("applies a status ahead, keeps the same one and records one behind", () => {
    expect(decide("pending", "pending", "payment_completed")).toBe("apply");
    expect(decide("pending", "pending", "completed")).toBe("apply");
    expect(decide("payment_completed", "payment_completed", "payment_completed")).toBe("same");
    expect(decide("payment_completed", "payment_completed", "pending")).toBe("stale");
    expect(decide("completed", "completed", "payment_completed")).toBe("stale");
  });

  it("never applies a status outside the contract's table, and judges by the last known status", () => {
    expect(decide("payment_completed", "payment_completed", "disputed")).toBe("not_in_contract");
    expect(decide("pending", "pending", "shipped")).toBe("not_in_contract");
    expect(decide("disputed", "payment_completed", "disputed")).toBe("not_in_contract");
    expect(decide("disputed", "payment_completed", "payment_completed")).toBe("stale");
    expect(decide("disputed", "payment_completed", "pending")).toBe("stale");
    expect(decide("disputed", "payment_completed", "completed")).toBe("apply");
  });
});

describe("a host with status names of its own", () => {
  // awaiting_payment → on_hold | paid → fulfilled: none of the contract's names.
  const flow = ["awaiting_payment", "paid", "fulfilled"];
  const rules: OrderStatusRules = {
    forServiceStatus: {
      pending: "awaiting_payment",
      payment_completed: "paid",
      completed: "fulfilled",
    },
    afterUpdate: contractStatusNames.afterUpdate,
    isKnown: (status) => flow.includes(status) || status === "on_hold",
    canReach: (from, to) => flow.includes(to) && flow.indexOf(to) > flow.indexOf(from),
    canTransition: () => true,
    isPaidOrLater: (status) => flow.indexOf(status) > 0,
    held: "on_hold",
  };
  const order: ShopOrder = {
    id: "o1",
    number: "SO-1",
    cartId: "c1",
    sessionId: "s1",
    customerId: null,
    status: "awaiting_payment",
    serviceOrderId: null,
    paymentMethod: "service_pay",
    currency: "EUR",
    price: 10_000,
    tax: 0,
    shippingPrice: 0,
    discountTotal: 0,
    tradeInDiscount: 0,
    total: 10_000,
    tradeInStatus: null,
    tradeInMessage: null,
    valuationState: "none",
    valuationItemId: null,
    valuationValue: null,
    valuationCurrency: null,
    valuationNote: null,
  };
  const notification = (status: string, amount = 10_000) => ({
    notificationId: "wh_1",
    dedupeKey: "k1",
    event: null,
    serviceOrderId: "ord_1",
    status,
    amount,
    currency: "EUR",
    tradeInDiscount: null,
  });

  it("writes the host's own name for the service's status", () => {
    const paid = planNotification(
      order,
      "awaiting_payment",
      notification("payment_completed"),
      rules,
    );
    expect(paid.outcome).toBe("applied");
    expect(paid.change?.to).toBe("paid");
    const done = planNotification(
      { ...order, status: "paid" },
      "paid",
      notification("completed"),
      rules,
    );
    expect(done.change?.to).toBe("fulfilled");
  });

  it("judges order by the host's names: a late pending is stale, a paid status twice is the same", () => {
    const paidOrder = { ...order, status: "paid", serviceOrderId: "ord_1" };
    expect(decideServiceStatus("paid", "paid", "pending", rules)).toBe("stale");
    expect(decideServiceStatus("paid", "paid", "payment_completed", rules)).toBe("same");
    expect(planNotification(paidOrder, "paid", notification("pending"), rules).change).toBeNull();
  });

  it("holds a mismatched payment in the host's held status, never the contract's name", () => {
    const held = planNotification(
      order,
      "awaiting_payment",
      notification("payment_completed", 1),
      rules,
    );
    expect(held.outcome).toBe("held");
    expect(held.change?.to).toBe("on_hold");
  });
});
