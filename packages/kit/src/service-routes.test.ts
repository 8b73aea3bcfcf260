import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ServiceInputError } from "./errors.js";
import type { NotificationDeps, WebhookSecretSource } from "./order-webhook.js";
import { type ServiceRouteDeps, serviceRouteHandlers } from "./service-routes.js";
import { sessionHash } from "./session-hash.js";
import type { CheckoutDetails, SessionIdentity, ShopperSource } from "./shop-ports.js";
import { SIGNATURE_HEADER, signWebhookBody } from "./webhook-signature.js";

// The route handlers are the kit's functions with the input checks and the contract's error form
// around them: each route is asked once as a shopper's browser or the service asks it, and once
// for each way its input can be wrong. The kit's functions themselves are tested beside them;
// here they are watched (what the handler passed on) and made to answer or fail.

const pendingOrder = vi.hoisted(() => ({
  saveServiceCheckout: vi.fn(),
  createServicePendingOrder: vi.fn(),
}));
vi.mock("./pending-order.js", async (original) => ({
  ...(await original<typeof import("./pending-order.js")>()),
  ...pendingOrder,
}));
const callbacks = vi.hoisted(() => ({ purchaseDataFor: vi.fn() }));
vi.mock("./callbacks.js", async (original) => ({
  ...(await original<typeof import("./callbacks.js")>()),
  ...callbacks,
}));

const SESSION = { sessionId: "sess-1", salt: "salt-1", customerId: "cust-1" };
const COOKIE = "shop_session=abc";
const identity: SessionIdentity = {
  ofRequest: async (r) => (r.headers.get("cookie") === COOKIE ? SESSION : null),
};
const SECRET = "user-1-m_demo";
const secret: WebhookSecretSource = { get: async () => SECRET };
const shopper: ShopperSource = {
  customer: async () => null,
  openCart: async () => null,
  loadCheckout: async () => null,
  noteAskedToCollect: async () => {},
  shippingMethod: () => {
    throw new Error("no delivery");
  },
  defaultShippingMethod: "standard",
};
const servicePay = { store: {}, shopBaseUrl: "http://shop.test" } as unknown as NotificationDeps;
const deps: ServiceRouteDeps = {
  identity,
  servicePay,
  client: {} as ServiceRouteDeps["client"],
  webhookSecret: secret,
  shopper,
};

const checkoutBody: z.ZodType<CheckoutDetails> = z
  .object({
    email: z.email(),
    billing: z.object({ given_name: z.string().min(1), postal_code: z.string().min(1) }),
    shipping_method: z.literal("standard"),
  })
  .transform((d) => ({
    email: d.email,
    billing: d.billing as unknown as CheckoutDetails["billing"],
    shipping: d.billing as unknown as CheckoutDetails["shipping"],
    shippingMethod: d.shipping_method,
  }));
const DETAILS = {
  email: "ana@example.com",
  billing: { given_name: "Ana", postal_code: "10115" },
  shipping_method: "standard",
};

const routes = serviceRouteHandlers({
  deps: () => deps,
  checkoutBody,
  fieldLabels: { postal_code: "postal code", given_name: "first name" },
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`http://shop.test${path}`, {
    method: "POST",
    headers: { cookie: COOKIE, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const answer = async (response: Response) => ({
  status: response.status,
  body: (await response.json()) as Record<string, unknown>,
});

beforeEach(() => {
  vi.clearAllMocks();
  vi.spyOn(console, "error").mockImplementation(() => {});
});

describe("the checkout route", () => {
  it("keeps the details for the shopper's session, keyed by the session hash", async () => {
    pendingOrder.saveServiceCheckout.mockResolvedValue({ ok: true, cartId: "cart-1" });
    const { status, body } = await answer(await routes.checkout(post("/checkout", DETAILS)));
    expect({ status, body }).toEqual({ status: 200, body: { cart_id: "cart-1" } });
    expect(pendingOrder.saveServiceCheckout).toHaveBeenCalledWith(
      { store: servicePay.store, client: deps.client },
      {
        sessionId: "sess-1",
        sessionHash: sessionHash("sess-1", "salt-1"),
        customerId: "cust-1",
        details: expect.objectContaining({ email: "ana@example.com", shippingMethod: "standard" }),
      },
    );
  });

  it("refuses a request without the shopper's session, a body not sent as JSON, and bad JSON", async () => {
    const noSession = post("/checkout", DETAILS, { cookie: "" });
    expect((await answer(await routes.checkout(noSession))).status).toBe(401);
    const form = post("/checkout", "email=a", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect((await answer(await routes.checkout(form))).status).toBe(415);
    const broken = await answer(await routes.checkout(post("/checkout", "{")));
    expect(broken.status).toBe(400);
    expect(pendingOrder.saveServiceCheckout).not.toHaveBeenCalled();
  });

  it("names the fields a shopper must correct, in the form's words, and keeps nothing", async () => {
    const bad = { ...DETAILS, billing: { given_name: "", postal_code: "" } };
    const { status, body } = await answer(await routes.checkout(post("/checkout", bad)));
    expect(status).toBe(400);
    expect(body.error).toBe("bad_request");
    expect(body.error_description).toBe(
      "Check these fields: billing first name, billing postal code.",
    );
    expect(pendingOrder.saveServiceCheckout).not.toHaveBeenCalled();
  });

  it("refuses a body over 64 KB without reading on", async () => {
    const huge = post("/checkout", { ...DETAILS, pad: "x".repeat(70 * 1024) });
    expect((await answer(await routes.checkout(huge))).status).toBe(413);
  });

  it("answers a failure of the kit with the contract's 500 and a correlation id, nothing more", async () => {
    pendingOrder.saveServiceCheckout.mockRejectedValue(new Error("database down: secret detail"));
    const { status, body } = await answer(await routes.checkout(post("/checkout", DETAILS)));
    expect(status).toBe(500);
    expect(body.error).toBe("internal_server_error");
    expect(String(body.error_description)).toMatch(/correlation id: [0-9a-f-]{36}/);
    expect(JSON.stringify(body)).not.toContain("secret detail");
  });
});

describe("the pending-order route", () => {
  const created = {
    ok: true,
    mode: "ready_to_place_order",
    created: true,
    cartId: "cart-1",
    number: "SO-1",
  };

  it("creates the order of the cart the service names, with the details sent", async () => {
    pendingOrder.createServicePendingOrder.mockResolvedValue(created);
    const request = post("/pending-order", { cart_id: "cart-1", ...DETAILS });
    const { status, body } = await answer(await routes.pendingOrder(request));
    expect(status).toBe(200);
    expect(body).toMatchObject({ created: true, cart_id: "cart-1", order_number: "SO-1" });
    expect(pendingOrder.createServicePendingOrder).toHaveBeenCalledWith(servicePay, {
      sessionId: "sess-1",
      customerId: "cust-1",
      cartId: "cart-1",
      details: expect.objectContaining({ email: "ana@example.com" }),
    });
  });

  it("without details uses the kept ones (none passed on)", async () => {
    pendingOrder.createServicePendingOrder.mockResolvedValue(created);
    await routes.pendingOrder(post("/pending-order", { cart_id: "cart-1" }));
    expect(pendingOrder.createServicePendingOrder.mock.calls[0]?.[1]).toEqual({
      sessionId: "sess-1",
      customerId: "cust-1",
      cartId: "cart-1",
    });
  });

  it("refuses a malformed cart id, details that fail the form's rules, and a body that is no object", async () => {
    for (const body of [{ cart_id: 42 }, { cart_id: "" }, { cart_id: "c".repeat(101) }, [1], "x"]) {
      expect((await answer(await routes.pendingOrder(post("/pending-order", body)))).status).toBe(
        400,
      );
    }
    const badDetails = post("/pending-order", { cart_id: "cart-1", ...DETAILS, email: "nope" });
    const refused = await answer(await routes.pendingOrder(badDetails));
    expect(refused.status).toBe(400);
    expect(refused.body.error_description).toBe("Check these fields: email.");
    expect(pendingOrder.createServicePendingOrder).not.toHaveBeenCalled();
  });
});

describe("the merchant endpoints", () => {
  it("shopper_data answers 404 for a request without the shopper's cookie", async () => {
    const response = await routes.shopperData(new Request("http://shop.test/shopper_data"));
    expect(response.status).toBe(404);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("purchase_data answers a cart the contract cannot carry with a named 400", async () => {
    callbacks.purchaseDataFor.mockRejectedValue(
      new ServiceInputError("purchase_data", "a line has no price"),
    );
    const { status, body } = await answer(
      await routes.purchaseData(
        new Request("http://shop.test/purchase_data", { headers: { cookie: COOKIE } }),
      ),
    );
    expect(status).toBe(400);
    expect(body.error_description).toBe(
      "This cart cannot be paid with the service: a line has no price",
    );
  });

  it("purchase_data is built for the shop's own address", async () => {
    callbacks.purchaseDataFor.mockResolvedValue({ purchase: null });
    const request = new Request("http://shop.test/purchase_data", { headers: { cookie: COOKIE } });
    expect(await (await routes.purchaseData(request)).json()).toEqual({ purchase: null });
    expect(callbacks.purchaseDataFor).toHaveBeenCalledWith(
      { shop: shopper, identity },
      request,
      "http://shop.test",
    );
  });
});

describe("the order webhook route", () => {
  const webhook = (raw: string, signature: string | null) =>
    new Request("http://shop.test/webhooks/order", {
      method: "POST",
      headers: signature === null ? {} : { [SIGNATURE_HEADER]: signature },
      body: raw,
    });

  it("answers 403 without a signature, or with one not made with the merchant's secret", async () => {
    const raw = JSON.stringify({ order_id: "o1" });
    expect((await routes.orderWebhook(webhook(raw, null))).status).toBe(403);
    const forged = signWebhookBody(new TextEncoder().encode(raw), "another-secret");
    expect((await routes.orderWebhook(webhook(raw, forged))).status).toBe(403);
  });

  it("with an inbox answers 200 once stored and hands the apply to the host's waitUntil", async () => {
    // The apply of what was stored finishes after the 200 (contract: Events › Webhook), within
    // the request's life: the inbox gives it to the waitUntil the routes were made with.
    const handed: Promise<unknown>[] = [];
    const waitUntil = (work: Promise<unknown>) => {
      handed.push(work);
    };
    const applied = Promise.resolve();
    const inbox = {
      receive: vi.fn(async (_n: unknown, options?: { waitUntil?: typeof waitUntil }) => {
        options?.waitUntil?.(applied);
        return "stored" as const;
      }),
    };
    const withInbox = serviceRouteHandlers({
      deps: () => ({ ...deps, inbox }),
      checkoutBody,
      waitUntil,
    });
    const raw = JSON.stringify({ id: "wh_1", cart_id: "c1", status: "payment_completed" });
    const signed = signWebhookBody(new TextEncoder().encode(raw), SECRET);
    const { status, body } = await answer(await withInbox.orderWebhook(webhook(raw, signed)));
    expect([status, body]).toEqual([200, { received: true, outcome: "stored" }]);
    expect(inbox.receive).toHaveBeenCalledWith(expect.objectContaining({ cartId: "c1" }), {
      waitUntil,
    });
    expect(handed).toEqual([applied]);
  });

  it("refuses a body over 64 KB before checking anything", async () => {
    const raw = "x".repeat(65 * 1024);
    const signed = signWebhookBody(new TextEncoder().encode(raw), SECRET);
    expect((await routes.orderWebhook(webhook(raw, signed))).status).toBe(413);
  });
});
