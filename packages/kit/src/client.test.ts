import { describe, expect, it } from "vitest";
import { buildCart } from "./cart.js";
import { createServiceClient } from "./client.js";
import { ServiceApiError, ServiceInputError, ServiceResponseError } from "./errors.js";
import { createFakeDeps, type FakeHandler, reply } from "./test-support/fake-transport.js";
import { MemoryTokenStore } from "./test-support/memory-token-store.js";

const BASE = "http://service.test";
const config = {
  apiBaseUrl: BASE,
  assetsUrl: `${BASE}/assets`,
  clientId: "c",
  clientSecret: "s",
  username: "u",
  password: "p",
  tokenKey: "client-test-token-key-at-least-32-chars",
};

function setup(api: FakeHandler) {
  const fake = createFakeDeps((call, index) =>
    call.url === `${BASE}/oauth2/token/`
      ? reply(200, { access_token: "tok", refresh_token: "r", user_id: "u1", merchant_id: "m1" })
      : api(call, index),
  );
  const client = createServiceClient({ config, store: new MemoryTokenStore(), deps: fake.deps });
  const apiCalls = () => fake.calls.filter((c) => !c.url.endsWith("/oauth2/token/"));
  return { ...fake, client, apiCalls };
}

const cart = buildCart({
  id: "cart-1",
  currency: "EUR",
  items: [{ id: "a", name: "A", description: "", url: "/a", quantity: 1, price: 1000, tax: 210 }],
});

describe("exact paths", () => {
  it("calls every endpoint in its contract form, with the bearer token", async () => {
    const { client, apiCalls } = setup((call) =>
      call.url.includes("/core/sessions/")
        ? reply(200, { session_id: "h|001" })
        : call.url.includes("/payments/orders/?")
          ? reply(200, { orders: [] })
          : reply(200, {}),
    );
    await client.getMerchants();
    await client.getSession("abc");
    await client.getTradeInItem("ti-1");
    await client.registerPurchase({ session_hash: "abc", cart: "e30=", order_amount: 1210 });
    await client.updateOrder({ order_id: "o-1", update_type: "shipped" });
    await client.listOrders({ status: "payment_completed", limit: 100 });
    expect(apiCalls().map((c) => `${c.method} ${c.url.slice(BASE.length)}`)).toEqual([
      "GET /core/merchants/",
      "GET /core/sessions/abc/",
      "GET /core/tradeinitems/ti-1/",
      "POST /register-purchase",
      "POST /payments/orders/update",
      "GET /payments/orders/?status=payment_completed&limit=100",
    ]);
    for (const call of apiCalls()) expect(call.headers.authorization).toBe("Bearer tok");
  });

  it("encodes a session id containing | (and other reserved characters)", async () => {
    const { client, apiCalls } = setup(() => reply(200, { session_id: "x" }));
    await client.getSession("abc|002");
    await client.getTradeInItem("a/b?c");
    expect(apiCalls().map((c) => c.url.slice(BASE.length))).toEqual([
      "/core/sessions/abc%7C002/",
      "/core/tradeinitems/a%2Fb%3Fc/",
    ]);
  });
});

describe("request bodies", () => {
  it("sends register-purchase as JSON", async () => {
    const { client, apiCalls } = setup(() => reply(200, { ok: true }));
    await client.registerPurchase({ session_hash: "h", cart: "e30=", order_amount: 0 });
    const [call] = apiCalls();
    expect(call?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(call?.body ?? "")).toEqual({
      session_hash: "h",
      cart: "e30=",
      order_amount: 0,
    });
  });

  it.each([
    ["a decimal order_amount", { session_hash: "h", cart: "e30=", order_amount: 12.5 }],
    ["a cart that is not Base64", { session_hash: "h", cart: "{not base64}", order_amount: 1 }],
  ])("refuses %s before sending", async (_label, body) => {
    const { client, apiCalls } = setup(() => reply(200, {}));
    await expect(client.registerPurchase(body)).rejects.toBeInstanceOf(ServiceInputError);
    expect(apiCalls()).toHaveLength(0);
  });

  it("sends each order update form and refuses types outside the contract's list", async () => {
    const { client, apiCalls } = setup(() => reply(200, {}));
    await client.updateOrder({
      order_id: "o",
      update_type: "partial_return",
      items: [{ id: "a", quantity: 1 }],
    });
    await client.updateOrder({ order_id: "o", update_type: "cart_update", cart });
    expect(apiCalls().map((c) => JSON.parse(c.body ?? "").update_type)).toEqual([
      "partial_return",
      "cart_update",
    ]);
    for (const bad of [
      { order_id: "o", update_type: "delivered" },
      { order_id: "o", update_type: "partial_shipment" },
      { order_id: "o", update_type: "cart_update" },
    ]) {
      // @ts-expect-error deliberately outside the typed input
      await expect(client.updateOrder(bad)).rejects.toBeInstanceOf(ServiceInputError);
    }
    expect(apiCalls()).toHaveLength(2);
  });
});

describe("answers", () => {
  it("accepts tradein_item as an object, as a string id, or absent; extra fields pass", async () => {
    const bodies = [
      { session_id: "h|001", tradein_item: { id: "t1", status: "accepted", x: 1 }, extra: true },
      { session_id: "opaque", tradein_item: "t1" },
      { session_id: "h|001" },
    ];
    const { client } = setup((_c, i) => reply(200, bodies[i - 1]));
    const [a, b, c] = [
      await client.getSession("h"),
      await client.getSession("h"),
      await client.getSession("h"),
    ];
    expect(a).toEqual(bodies[0]);
    expect(b.tradein_item).toBe("t1");
    expect(c.tradein_item).toBeUndefined();
  });

  it("turns an error answer into ServiceApiError with code and description", async () => {
    const { client } = setup(() =>
      reply(410, { error: "gone", error_description: "Valuation expired" }),
    );
    await expect(client.getTradeInItem("t")).rejects.toMatchObject({
      status: 410,
      error: "gone",
      errorDescription: "Valuation expired",
      path: "/core/tradeinitems/t/",
    });
  });

  it("quotes the correlation id of a 500", async () => {
    const { client } = setup(() =>
      reply(500, {
        error: "internal_server_error",
        error_description: "Unexpected failure, correlation id: 5a1f-77",
      }),
    );
    const error = await client.getMerchants().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceApiError);
    expect((error as ServiceApiError).correlationId).toBe("5a1f-77");
  });

  it("reports a 2xx answer of the wrong shape as ServiceResponseError", async () => {
    const { client } = setup(() => reply(200, { orders: "nope" }));
    await expect(client.listOrders()).rejects.toBeInstanceOf(ServiceResponseError);
  });

  it("keeps a non-JSON success body where the contract does not show one", async () => {
    const { client } = setup(() => ({ status: 200, text: "OK" }));
    expect(await client.updateOrder({ order_id: "o", update_type: "shipped" })).toBe("OK");
  });

  it("accepts an empty success body where the contract does not show one", async () => {
    const { client } = setup(() => ({ status: 200, text: "" }));
    expect(
      await client.registerPurchase({ session_hash: "h", cart: "e30=", order_amount: 1 }),
    ).toBeNull();
  });
});
