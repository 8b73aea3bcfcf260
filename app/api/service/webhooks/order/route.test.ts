import { afterEach, describe, expect, it } from "vitest";
import { getNotificationInbox } from "@/lib/service-adapter/service";
import {
  CHECKOUT,
  jsonRequest,
  newSession,
  openPayment,
  pendingOrderRequest,
  seedCart,
  sessionCookie,
  setUpTestShop,
  TEST_ENV,
  webhookRequest,
  withHistory,
} from "@/test-support/test-shop";
import { POST as checkout } from "../../checkout/route";
import { POST as pendingOrder } from "../../pending-order/route";
import { POST } from "./route";

// Contract: Events › Webhook, Authentication 5, Merchant endpoints rule 2 — against a real
// migrated SQLite database, through the exported route handler.

const shop = setUpTestShop();
let seq = 0;

afterEach(() => {
  delete process.env.SERVICE_ORDER_CREATION;
});

/** What cartForNewSession's order owes before the trade-in, its contract Cart's total: items
 *  100.00 + 23.00 + 2 × 19.99 + 9.20, and the express delivery the checkout chose, 14.99. */
const ITEMS_TOTAL = 17218;
const CART_TOTAL = ITEMS_TOTAL + 1499;

/** A session with a cart of one phone and two cables: 100.00+23.00 and 2×19.99+9.20 tax. */
async function cartForNewSession() {
  const session = newSession();
  const cart = await seedCart(shop.db, session.sessionId, [
    { productId: shop.products.phone.id, quantity: 1 },
    { productId: shop.products.cable.id, quantity: 2 },
  ]);
  return { session, cart, cookie: await sessionCookie(session) };
}

async function pendingOrderFor() {
  const { session, cart, cookie } = await cartForNewSession();
  await openPayment(session);
  const res = await pendingOrder(pendingOrderRequest(cart.id, cookie));
  expect(res.status).toBe(200);
  const order = await shop.db.order.findUniqueOrThrow({ where: { cartId: cart.id } });
  return { order, cart, cookie };
}

function notification(
  cartId: string,
  status: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  seq += 1;
  return {
    id: `wh_${String(seq).padStart(6, "0")}`,
    event: "order.payment_completed",
    created_at: "2026-11-21T12:00:00.000Z",
    order_id: `svc_${cartId}`,
    cart_id: cartId,
    status,
    // What the service charged for: the Cart's total (items, tax and delivery), the discount apart.
    amount: CART_TOTAL,
    currency: "EUR",
    trade_in_discount: 5000,
    customer_id: null,
    ...extra,
  };
}

/** The emulator's `data`-wrapped form: cart_id and status inside `data`. */
function wrapped(body: Record<string, unknown>) {
  const { cart_id, status, ...rest } = body;
  return { ...rest, data: { cart_id, status } };
}

/** What became of a stored notification, as the shop's database shows it ("missing": none). */
async function outcomeOf(where: { notificationId: string; cartId?: string } | { cartId: string }) {
  const row = await shop.db.serviceNotification.findFirst({ where });
  return row?.outcome ?? "missing";
}

/**
 * Store-then-apply (docs/decisions/webhook-storage.md): a 200 means the notification is durably
 * stored; it is applied right after and what the apply did is stored on its row. Waits for
 * that outcome the way any reader of the database would see it.
 */
async function settlesAs(
  where: Parameters<typeof outcomeOf>[0],
  outcome: "applied" | "recorded" | "held" | "early",
) {
  await expect.poll(() => outcomeOf(where)).toBe(outcome);
}

const idOf = (body: Record<string, unknown>) => ({ notificationId: String(body.id) });

const snapshot = async (orderId: string) => ({
  order: await shop.db.order.findUniqueOrThrow({ where: { id: orderId } }),
  history: await shop.db.orderStatusChange.count({ where: { orderId } }),
  notifications: await shop.db.serviceNotification.count(),
});

describe("POST /api/service/webhooks/order", () => {
  it("answers 403 and changes nothing for a missing, forged or malformed signature", async () => {
    const { order } = await pendingOrderFor();
    const before = await snapshot(order.id);
    const body = notification(order.cartId, "payment_completed");
    for (const request of [
      webhookRequest(body, { signature: null }),
      webhookRequest(body, { signature: "" }),
      // The classic mistake: signed with the client secret instead of <user_id>-<merchant_id>.
      webhookRequest(body, { secret: TEST_ENV.SERVICE_CLIENT_SECRET }),
      webhookRequest(body, { signature: "0".repeat(64) }),
      webhookRequest(body, { signature: `sha256=${"a".repeat(64)}` }),
    ]) {
      const res = await POST(request);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: "forbidden" });
    }
    // Signed over different bytes (re-serialised JSON with other spacing) is forged too.
    const text = JSON.stringify(body);
    const signedOther = webhookRequest(JSON.stringify(body, null, 2));
    const tampered = new Request(signedOther.url, {
      method: "POST",
      headers: signedOther.headers,
      body: text,
    });
    expect((await POST(tampered)).status).toBe(403);
    expect(await snapshot(order.id)).toEqual(before);
  });

  it("applies a valid flat notification with exactly 200: status, service order id, trade-in discount", async () => {
    const { order } = await pendingOrderFor();
    expect(order.status).toBe("pending");
    const body = notification(order.cartId, "payment_completed");
    const res = await POST(webhookRequest(body));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, outcome: "stored" });
    await settlesAs(idOf(body), "applied");
    const after = await withHistory(
      shop.db,
      await shop.db.order.findUniqueOrThrow({ where: { id: order.id } }),
    );
    expect(after.status).toBe("payment_completed");
    expect(after.serviceOrderId).toBe(`svc_${order.cartId}`);
    expect(after.tradeInDiscount).toBe(5000);
    expect(after.total).toBe(order.price + order.tax + order.shippingPrice - 5000);
    expect(after.history.map((h) => [h.from, h.to, h.source])).toEqual([
      [null, "pending", "shop"],
      ["pending", "payment_completed", "service"],
    ]);
  });

  it("reads the data-wrapped form the same way", async () => {
    const { order } = await pendingOrderFor();
    const body = notification(order.cartId, "payment_completed");
    const res = await POST(webhookRequest(wrapped(body)));
    expect(res.status).toBe(200);
    await settlesAs(idOf(body), "applied");
    const after = await shop.db.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(after.status).toBe("payment_completed");
    const stored = await shop.db.serviceNotification.findFirstOrThrow({
      where: { orderId: order.id },
    });
    expect(stored.form).toBe("data");
  });

  it("changes the order exactly once when the same notification arrives 20 times at once", async () => {
    const { order } = await pendingOrderFor();
    const sent = notification(order.cartId, "payment_completed");
    const body = JSON.stringify(sent);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => POST(webhookRequest(body))),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const outcomes = await Promise.all(responses.map(async (r) => (await r.json()).outcome));
    expect(outcomes.filter((o) => o === "stored")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(19);
    await settlesAs(idOf(sent), "applied");
    expect(await shop.db.serviceNotification.count({ where: { orderId: order.id } })).toBe(1);
    expect(
      await shop.db.orderStatusChange.count({ where: { orderId: order.id, source: "service" } }),
    ).toBe(1);
  });

  it("treats a body without an id as a duplicate by order_id/cart_id and status", async () => {
    const { order } = await pendingOrderFor();
    const { id: _id, ...body } = notification(order.cartId, "payment_completed");
    const first = await POST(webhookRequest(body));
    const again = await POST(webhookRequest({ ...body, created_at: "2026-11-21T12:00:05.000Z" }));
    expect([first.status, again.status]).toEqual([200, 200]);
    expect((await again.json()).outcome).toBe("duplicate");
    await settlesAs({ cartId: order.cartId }, "applied");
    expect(await shop.db.serviceNotification.count({ where: { orderId: order.id } })).toBe(1);
  });

  it("never moves an order backwards when deliveries arrive out of order", async () => {
    const { order } = await pendingOrderFor();
    const paid = notification(order.cartId, "payment_completed");
    const done = notification(order.cartId, "completed", { event: "order.status_updated" });
    const late = notification(order.cartId, "pending");
    // The later notification first: completed is reachable from pending, so it applies at once.
    // Each is sent once the one before was applied, as the service would deliver them apart.
    for (const [body, outcome] of [
      [done, "applied"],
      [paid, "recorded"],
      [late, "recorded"],
    ] as const) {
      expect((await POST(webhookRequest(body))).status).toBe(200);
      await settlesAs(idOf(body), outcome);
    }
    const after = await withHistory(
      shop.db,
      await shop.db.order.findUniqueOrThrow({ where: { id: order.id } }),
    );
    expect(after.status).toBe("completed");
    expect(after.history.map((h) => h.to)).toEqual(["pending", "completed"]);
    // Every delivery is kept in the log, with what was done about it.
    const log = await shop.db.serviceNotification.findMany({
      where: { orderId: order.id },
      orderBy: { receivedAt: "asc" },
    });
    expect(log.map((n) => [n.status, n.outcome])).toEqual([
      ["completed", "applied"],
      ["payment_completed", "recorded"],
      ["pending", "recorded"],
    ]);
  });

  it("stores and shows a status outside the contract's table, never applying it over a known one", async () => {
    const { order } = await pendingOrderFor();
    const deliver = async (status: string, outcome: "applied" | "recorded") => {
      const body = notification(order.cartId, status);
      expect((await POST(webhookRequest(body))).status).toBe(200);
      await settlesAs(idOf(body), outcome);
    };
    await deliver("payment_completed", "applied");
    await deliver("on_hold_for_review", "recorded");
    let after = await shop.db.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(after.status).toBe("payment_completed");
    // A shop status the contract does not list is not the service's to set either.
    await deliver("returned", "recorded");
    after = await shop.db.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(after.status).toBe("payment_completed");
    await deliver("completed", "applied");
    const final = await withHistory(
      shop.db,
      await shop.db.order.findUniqueOrThrow({ where: { id: order.id } }),
    );
    expect(final.status).toBe("completed");
    expect(final.history.map((h) => h.to)).toEqual([
      "pending",
      "payment_completed",
      "payment_completed",
      "payment_completed",
      "completed",
    ]);
    // Shown: the history says what arrived and that it was not applied.
    expect(final.history[2]?.note).toMatch(/"on_hold_for_review" is not in the contract's table/);
    expect(final.history[3]?.note).toMatch(/"returned" is not in the contract's table/);
    const stored = await shop.db.serviceNotification.findMany({
      where: { orderId: order.id, status: "on_hold_for_review" },
    });
    expect(stored).toHaveLength(1);
  });

  it.each([
    ["an amount below the order's", { amount: CART_TOTAL - 1 }, /amount €187\.16/],
    ["an amount above the order's", { amount: CART_TOTAL + 5000 }, /amount €237\.17/],
    [
      "the items' total without the delivery",
      { amount: ITEMS_TOTAL },
      /amount €172\.18, the order owes €187\.17/,
    ],
    ["no amount", { amount: null }, /amount missing/],
    ["another currency", { currency: "GBP" }, /currency GBP/],
    ["a negative trade-in discount", { trade_in_discount: -100 }, /discount -€1\.00/],
    ["a discount larger than the order", { trade_in_discount: 99_999 }, /discount €999\.99/],
  ])("holds the order for a person, never paid, on %s", async (_label, extra, why) => {
    const { order } = await pendingOrderFor();
    const body = notification(order.cartId, "payment_completed", extra);
    const res = await POST(webhookRequest(body));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, outcome: "stored" });
    await settlesAs(idOf(body), "held");
    const held = await withHistory(
      shop.db,
      await shop.db.order.findUniqueOrThrow({ where: { id: order.id } }),
    );
    expect(held.status).toBe("payment_mismatch");
    expect(held.tradeInDiscount).toBe(0);
    expect(held.history.at(-1)?.note).toMatch(why);
    // Later notifications do not lift the hold: a person decides.
    const later = notification(order.cartId, "completed");
    await POST(webhookRequest(later));
    await settlesAs(idOf(later), "recorded");
    expect((await shop.db.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe(
      "payment_mismatch",
    );
  });

  it("keeps a notification id reused by another payment as its own payment, not a duplicate", async () => {
    const first = await pendingOrderFor();
    const second = await pendingOrderFor();
    const reused = { id: "wh_000001" };
    const a = await POST(webhookRequest(notification(first.cart.id, "payment_completed", reused)));
    const b = await POST(webhookRequest(notification(second.cart.id, "payment_completed", reused)));
    expect(await a.json()).toEqual({ received: true, outcome: "stored" });
    expect(await b.json()).toEqual({ received: true, outcome: "stored" });
    await settlesAs({ notificationId: reused.id, cartId: first.cart.id }, "applied");
    await settlesAs({ notificationId: reused.id, cartId: second.cart.id }, "applied");
    const paid = await withHistory(
      shop.db,
      await shop.db.order.findUniqueOrThrow({ where: { id: second.order.id } }),
    );
    expect(paid.status).toBe("payment_completed");
    expect(paid.history.at(-1)?.note).toMatch(/id was used before by another payment/);
    // The exact same delivery again is still a duplicate.
    const again = await POST(
      webhookRequest(notification(second.cart.id, "payment_completed", reused)),
    );
    expect(await again.json()).toEqual({ received: true, outcome: "duplicate" });
  });

  it("answers 400 to malformed JSON or a body that is not a notification, storing nothing", async () => {
    const before = await shop.db.serviceNotification.count();
    for (const body of [
      "{not json",
      JSON.stringify({ id: "x", status: "pending" }), // neither order_id nor cart_id
      JSON.stringify({ id: "y", cart_id: "c", status: "pending", amount: 10.5 }), // decimal
      JSON.stringify([1, 2, 3]),
    ]) {
      const res = await POST(webhookRequest(body));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "bad_request" });
    }
    expect(await shop.db.serviceNotification.count()).toBe(before);
  });

  it("keeps a notification that arrives before the order and applies it when the order is created", async () => {
    const { session, cart, cookie } = await cartForNewSession();
    const body = notification(cart.id, "payment_completed");
    const early = await POST(webhookRequest(wrapped(body)));
    expect(early.status).toBe(200);
    expect((await early.json()).outcome).toBe("stored");
    await settlesAs(idOf(body), "early");
    expect(await shop.db.order.count({ where: { cartId: cart.id } })).toBe(0);

    await openPayment(session);
    const res = await pendingOrder(pendingOrderRequest(cart.id, cookie));
    expect(res.status).toBe(200);
    const order = await withHistory(
      shop.db,
      await shop.db.order.findUniqueOrThrow({ where: { cartId: cart.id } }),
    );
    expect(order.status).toBe("payment_completed");
    expect(order.tradeInDiscount).toBe(5000);
    expect(order.history.map((h) => h.to)).toEqual(["pending", "payment_completed"]);
    const stored = await shop.db.serviceNotification.findFirstOrThrow({
      where: { cartId: cart.id },
    });
    expect([stored.orderId, stored.outcome]).toEqual([order.id, "applied"]);
  });

  it("applies copies racing the order's creation exactly once, whichever commits first", async () => {
    const { session, cart, cookie } = await cartForNewSession();
    await openPayment(session);
    const body = JSON.stringify(notification(cart.id, "payment_completed"));
    const [created, ...deliveries] = await Promise.all([
      pendingOrder(pendingOrderRequest(cart.id, cookie)),
      ...Array.from({ length: 10 }, () => POST(webhookRequest(body))),
    ]);
    expect(created?.status).toBe(200);
    expect(deliveries.map((r) => r.status)).toEqual(Array(10).fill(200));
    const order = await shop.db.order.findUniqueOrThrow({ where: { cartId: cart.id } });
    // Applied by the order's creation or by the webhook's apply, whichever came second.
    await expect
      .poll(async () => (await shop.db.order.findUniqueOrThrow({ where: { id: order.id } })).status)
      .toBe("payment_completed");
    expect(
      await shop.db.orderStatusChange.count({ where: { orderId: order.id, source: "service" } }),
    ).toBe(1);
    expect(await shop.db.serviceNotification.count({ where: { cartId: cart.id } })).toBe(1);
  });

  it("in webhook mode creates the order from the checkout details when the webhook arrives", async () => {
    process.env.SERVICE_ORDER_CREATION = "webhook";
    const { cart, cookie } = await cartForNewSession();
    const kept = await checkout(
      jsonRequest("http://shop.test/api/service/checkout", CHECKOUT, cookie),
    );
    expect(kept.status).toBe(200);
    // The ready-to-place-order call creates nothing in this mode.
    const ready = await pendingOrder(
      jsonRequest("http://shop.test/api/service/pending-order", { cart_id: cart.id }, cookie),
    );
    expect(await ready.json()).toMatchObject({
      mode: "webhook",
      created: false,
      order_number: null,
    });
    expect(await shop.db.order.count({ where: { cartId: cart.id } })).toBe(0);

    const body = notification(cart.id, "payment_completed");
    const res = await POST(webhookRequest(body));
    expect(res.status).toBe(200);
    expect((await res.json()).outcome).toBe("stored");
    await settlesAs(idOf(body), "applied");
    const order = await shop.db.order.findUniqueOrThrow({ where: { cartId: cart.id } });
    expect(order).toMatchObject({
      status: "payment_completed",
      paymentMethod: "service_pay",
      email: CHECKOUT.email,
      shippingMethod: "express",
      tradeInDiscount: 5000,
    });
    // The same delivery again: still one order, no second change.
    const again = await POST(
      webhookRequest(
        notification(cart.id, "payment_completed", { id: `wh_${String(seq).padStart(6, "0")}` }),
      ),
    );
    expect((await again.json()).outcome).toBe("duplicate");
    expect(await shop.db.order.count({ where: { cartId: cart.id } })).toBe(1);
  });

  it("in webhook mode keeps a notification without checkout details, and its redelivery creates the order", async () => {
    process.env.SERVICE_ORDER_CREATION = "webhook";
    const { cart, cookie } = await cartForNewSession();
    const sent = notification(cart.id, "payment_completed");
    const body = JSON.stringify(sent);
    const res = await POST(webhookRequest(body));
    expect(res.status).toBe(200);
    expect((await res.json()).outcome).toBe("stored");
    await settlesAs(idOf(sent), "early");
    await getNotificationInbox().idle(); // its attempt to create the order found no details
    expect(await shop.db.order.count({ where: { cartId: cart.id } })).toBe(0);
    // The details arrive late; the service's retry of the same bytes must not be swallowed.
    await checkout(jsonRequest("http://shop.test/api/service/checkout", CHECKOUT, cookie));
    const retry = await POST(webhookRequest(body));
    expect(retry.status).toBe(200);
    expect((await retry.json()).outcome).toBe("duplicate");
    await settlesAs(idOf(sent), "applied");
    const order = await shop.db.order.findUniqueOrThrow({ where: { cartId: cart.id } });
    expect(order.status).toBe("payment_completed");
    expect(await shop.db.serviceNotification.count({ where: { cartId: cart.id } })).toBe(1);
  });

  it("answers 413 to a body over 64 KB, storing nothing, before reading the rest", async () => {
    const before = await shop.db.serviceNotification.count();
    // Declared: refused from the Content-Length alone, even with a valid signature.
    const padded = { ...notification("cart-x", "payment_completed"), pad: "x".repeat(64 * 1024) };
    expect((await POST(webhookRequest(padded))).status).toBe(413);
    // Streamed without a length: reading stops at the limit (a never-ending body would hang).
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
      },
    });
    const streamed = new Request("http://shop.test/api/service/webhooks/order", {
      method: "POST",
      headers: { "content-type": "application/json", "x-service-signature": "a".repeat(64) },
      body: endless,
      duplex: "half",
    } as RequestInit);
    const res = await POST(streamed);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: "payload_too_large" });
    expect(pulled).toBeLessThanOrEqual(8);
    expect(await shop.db.serviceNotification.count()).toBe(before);
  });
});
