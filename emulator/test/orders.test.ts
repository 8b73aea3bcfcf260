import { beforeEach, describe, expect, it } from "vitest";
import { acceptedTradeIn, b64, emulatorPerFile, errorOf, makeCart } from "./harness";

// Contract: POST /payments/orders/update (scope `updates`, the five update types, 403/404/400)
// and GET /payments/orders/ (reconciliation: status, limit, { orders: [...] }).

const h = emulatorPerFile();
let token: string;
beforeEach(async () => {
  token = (await h.login()).access_token;
});

/** A registered purchase of 2 × sku-1 (other payment method). */
async function purchase(orderId = "SO-1") {
  const ti = await acceptedTradeIn(h);
  const cart = makeCart({}, 25000, 2);
  const res = await h.api(token, "/register-purchase", {
    method: "POST",
    json: { session_hash: ti.hash, cart: b64(cart), order_amount: cart.total, order_id: orderId },
  });
  expect(res.status).toBe(200);
  return { cart, order: await res.json() };
}

const update = (json: unknown, t = token) =>
  h.api(t, "/payments/orders/update", { method: "POST", json });

describe("POST /payments/orders/update", () => {
  it.each([
    ["shipped", {}, "shipped"],
    ["returned", {}, "returned"],
    ["partial_shipment", { items: [{ id: "sku-1", quantity: 1 }] }, "partially_shipped"],
    ["partial_return", { items: [{ id: "sku-1", quantity: 2 }] }, "partially_returned"],
  ])("accepts update_type %s", async (updateType, extra, status) => {
    await purchase();
    const res = await update({ order_id: "SO-1", update_type: updateType, ...extra });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ order_id: "SO-1", status, update_type: updateType });
  });

  it("accepts cart_update with the updated cart and takes its total as the amount", async () => {
    const { order } = await purchase();
    const smaller = makeCart({ id: order.cart_id }, 25000, 1);
    const res = await update({ order_id: "SO-1", update_type: "cart_update", cart: b64(smaller) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "completed", amount: smaller.total });
  });

  it("accepts cart_update with the cart as a JSON object too", async () => {
    const { order } = await purchase();
    const smaller = makeCart({ id: order.cart_id }, 25000, 1);
    const res = await update({ order_id: "SO-1", update_type: "cart_update", cart: smaller });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ amount: smaller.total });
    const bad = await update({
      order_id: "SO-1",
      update_type: "cart_update",
      cart: { ...smaller, total: 1.5 },
    });
    expect(await errorOf(bad)).toMatchObject({ status: 400, error: "bad_request" });
  });

  it("answers 403 forbidden when the token lacks the scope updates", async () => {
    await purchase();
    const narrow = (await h.login({ scope: "core payments valuations" })).access_token;
    const res = await update({ order_id: "SO-1", update_type: "shipped" }, narrow);
    expect(await errorOf(res)).toMatchObject({ status: 403, error: "forbidden" });
    const basic = await h.login({
      client: ["basic-client", "basic-client-secret"],
      username: "basic-admin",
      password: "basic-password",
      scope: "core payments valuations",
    });
    const other = await update({ order_id: "SO-1", update_type: "shipped" }, basic.access_token);
    expect(await errorOf(other)).toMatchObject({ status: 403, error: "forbidden" });
  });

  it("answers 404 not_found for an unknown order id", async () => {
    const res = await update({ order_id: "nope", update_type: "shipped" });
    expect(await errorOf(res)).toMatchObject({ status: 404, error: "not_found" });
  });

  it.each(["delivered", "cancelled", "SHIPPED", "", 7])(
    "answers 400 bad_request for update_type %j",
    async (updateType) => {
      await purchase();
      const res = await update({ order_id: "SO-1", update_type: updateType });
      expect(await errorOf(res)).toMatchObject({ status: 400, error: "bad_request" });
    },
  );

  it.each([
    ["a partial shipment without items", { update_type: "partial_shipment" }],
    ["a partial return with an empty items list", { update_type: "partial_return", items: [] }],
    [
      "an item not in the order",
      { update_type: "partial_shipment", items: [{ id: "sku-9", quantity: 1 }] },
    ],
    [
      "more than was ordered",
      { update_type: "partial_return", items: [{ id: "sku-1", quantity: 3 }] },
    ],
    [
      "a decimal quantity",
      { update_type: "partial_return", items: [{ id: "sku-1", quantity: 1.5 }] },
    ],
    ["a cart_update without a cart", { update_type: "cart_update" }],
    [
      "a cart_update with a cart that is not Base64 JSON",
      { update_type: "cart_update", cart: "??" },
    ],
    [
      "a cart_update whose cart does not add up",
      { update_type: "cart_update", cart: b64({ ...makeCart(), total: 1 }) },
    ],
    ["items on a full shipment", { update_type: "shipped", items: [{ id: "sku-1", quantity: 1 }] }],
  ])("answers 400 bad_request for %s", async (_, body) => {
    await purchase();
    const res = await update({ order_id: "SO-1", ...body });
    expect(await errorOf(res)).toMatchObject({ status: 400, error: "bad_request" });
  });

  it("keeps the update history (visible through the control API)", async () => {
    await purchase();
    await update({
      order_id: "SO-1",
      update_type: "partial_shipment",
      items: [{ id: "sku-1", quantity: 1 }],
    });
    await update({ order_id: "SO-1", update_type: "shipped" });
    const { orders } = await (await h.control("GET", "/orders")).json();
    expect(orders[0].updates.map((u: { update_type: string }) => u.update_type)).toEqual([
      "partial_shipment",
      "shipped",
    ]);
  });
});

describe("GET /payments/orders/", () => {
  it("answers { orders: [...] } with order_id, amount, customer_id and the other order fields", async () => {
    const { cart } = await purchase("SO-7");
    const res = await h.api(token, "/payments/orders/");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body)).toEqual(["orders"]);
    expect(body.orders[0]).toMatchObject({
      order_id: "SO-7",
      cart_id: cart.id,
      status: "completed",
      amount: cart.total,
      currency: "EUR",
      trade_in_discount: 12000,
      customer_id: null,
    });
    expect(body.orders[0]).toHaveProperty("id");
  });

  it("filters by status and limits the count (newest first)", async () => {
    for (const [i, status] of [
      "payment_completed",
      "pending",
      "payment_completed",
      "payment_completed",
    ].entries()) {
      await h.control("POST", "/orders", {
        order_id: `EP-${i}`,
        cart_id: `c-${i}`,
        amount: 30000,
        status,
        customer_id: `cust-${i}`,
      });
    }
    const paid = await (
      await h.api(token, "/payments/orders/?status=payment_completed&limit=100")
    ).json();
    expect(paid.orders.map((o: { order_id: string }) => o.order_id)).toEqual([
      "EP-3",
      "EP-2",
      "EP-0",
    ]);
    const two = await (
      await h.api(token, "/payments/orders/?status=payment_completed&limit=2")
    ).json();
    expect(two.orders).toHaveLength(2);
    expect(two.orders[0]).toMatchObject({ order_id: "EP-3", amount: 30000, customer_id: "cust-3" });
  });

  it("shows only the token's merchant's orders", async () => {
    await purchase();
    const basic = await h.login({
      client: ["basic-client", "basic-client-secret"],
      username: "basic-admin",
      password: "basic-password",
      scope: "core payments valuations",
    });
    const body = await (await h.api(basic.access_token, "/payments/orders/")).json();
    expect(body).toEqual({ orders: [] });
  });

  it.each(["?status=bogus", "?limit=0", "?limit=1.5", "?limit=abc", "?limit=100000"])(
    "answers 400 bad_request for %s",
    async (query) => {
      const res = await h.api(token, `/payments/orders/${query}`);
      expect(await errorOf(res)).toMatchObject({ status: 400, error: "bad_request" });
    },
  );
});
