import { describe, expect, it, vi } from "vitest";
import { buildCart } from "./cart.js";
import {
  ServiceApiError,
  ServiceInputError,
  ServiceNetworkError,
  ServiceTimeoutError,
} from "./errors.js";
import {
  buildRegisterPurchaseBody,
  classifyRegisterPurchaseFailure,
  encodeCart,
  registerPurchaseWithTradeIn,
} from "./register-purchase.js";
import type { Session } from "./resources.js";
import { SessionLookupError } from "./session-lookup.js";

const cart = buildCart({
  id: "cart-9",
  currency: "EUR",
  items: [
    { id: "p", name: "Phone", description: "", url: "/p", quantity: 1, price: 50000, tax: 10500 },
  ],
});
const now = new Date("2026-01-01T12:00:00Z");
const accepted = { id: "t1", status: "accepted", valid_until: "2026-01-02T12:00:00Z" };
const api = (status: number) =>
  new ServiceApiError({ status, method: "POST", path: "/register-purchase" });

describe("encodeCart / buildRegisterPurchaseBody", () => {
  it("sends Base64 of the JSON cart, decodable back to the same cart", () => {
    const encoded = encodeCart(cart);
    expect(encoded).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(JSON.parse(Buffer.from(encoded, "base64").toString("utf8"))).toEqual(cart);
  });

  it("builds the body with integer cents and refuses a decimal amount", () => {
    expect(buildRegisterPurchaseBody({ sessionHash: "h", cart, orderAmount: 60500 })).toEqual({
      session_hash: "h",
      cart: encodeCart(cart),
      order_amount: 60500,
    });
    expect(() =>
      buildRegisterPurchaseBody({ sessionHash: "h", cart, orderAmount: 605.0001 }),
    ).toThrow(ServiceInputError);
  });
});

describe("classifyRegisterPurchaseFailure", () => {
  it.each([
    [api(400), "not_applied", "rejected"],
    [api(404), "not_applied", "unknown"],
    [api(410), "not_applied", "expired"],
    [api(429), "retry_later", "rate_limited"],
    [api(503), "retry_later", "unavailable"],
    [api(500), "retry_later", "server_error"],
    [api(401), "retry_later", "authorization"],
    [new ServiceTimeoutError("POST", "/register-purchase", 10000), "retry_later", "timeout"],
    [
      new ServiceNetworkError("POST", "/register-purchase", { cause: new Error("reset") }),
      "retry_later",
      "network",
    ],
    [new SessionLookupError(["a", "b"]), "retry_later", "session_unsettled"],
    [new ServiceInputError("register-purchase", "decimal"), "not_applied", "rejected"],
  ])("%s → %s / %s", (error, kind, reason) => {
    const outcome = classifyRegisterPurchaseFailure(error);
    expect(outcome).toMatchObject({ kind, reason });
    if (outcome.kind === "not_applied") expect(outcome.message).toMatch(/not applied/);
  });

  it("carries the service's Retry-After of a 429 or 503 to the retry queue", () => {
    for (const status of [429, 503]) {
      const error = new ServiceApiError({
        status,
        method: "POST",
        path: "/register-purchase",
        retryAfterMs: 30_000,
      });
      expect(classifyRegisterPurchaseFailure(error)).toMatchObject({ retryAfterMs: 30_000 });
    }
    expect(classifyRegisterPurchaseFailure(api(429))).not.toHaveProperty("retryAfterMs");
  });

  it("rethrows what is not a service failure (a bug should not be queued)", () => {
    expect(() => classifyRegisterPurchaseFailure(new TypeError("bug"))).toThrow(TypeError);
  });
});

function fakeClient(session: Session | Error, register: () => Promise<unknown>) {
  return {
    getSession: vi.fn(async () => {
      if (session instanceof Error) throw session;
      return session;
    }),
    getTradeInItem: vi.fn(),
    registerPurchase: vi.fn(register),
  };
}

describe("registerPurchaseWithTradeIn", () => {
  const input = { sessionHash: "h", cart, orderAmount: cart.total, now };

  it("registers when the trade-in is accepted and unexpired", async () => {
    const client = fakeClient({ session_id: "h", tradein_item: accepted }, async () => ({
      id: "o",
    }));
    expect(await registerPurchaseWithTradeIn(client, input)).toEqual({
      kind: "registered",
      response: { id: "o" },
    });
    expect(client.registerPurchase).toHaveBeenCalledWith(buildRegisterPurchaseBody(input));
  });

  it.each([
    ["no trade-in", { session_id: "h" }, "missing"],
    [
      "not accepted",
      { session_id: "h", tradein_item: { ...accepted, status: "offered" } },
      "not_accepted",
    ],
    [
      "expired",
      { session_id: "h", tradein_item: { ...accepted, valid_until: "2026-01-01T00:00:00Z" } },
      "expired",
    ],
  ])("does not call register-purchase when %s", async (_label, session, reason) => {
    const client = fakeClient(session, async () => ({}));
    expect(await registerPurchaseWithTradeIn(client, input)).toMatchObject({
      kind: "not_applied",
      reason,
    });
    expect(client.registerPurchase).not.toHaveBeenCalled();
  });

  it("tells the shopper when the session is unknown", async () => {
    const client = fakeClient(api(404), async () => ({}));
    expect(await registerPurchaseWithTradeIn(client, input)).toMatchObject({
      kind: "not_applied",
      reason: "unknown",
    });
  });

  it("queues on a 503 that outlived the transport's retries and on a timeout", async () => {
    const unavailable = fakeClient({ session_id: "h", tradein_item: accepted }, async () => {
      throw api(503);
    });
    expect(await registerPurchaseWithTradeIn(unavailable, input)).toMatchObject({
      kind: "retry_later",
    });
    const slow = fakeClient({ session_id: "h", tradein_item: accepted }, async () => {
      throw new ServiceTimeoutError("POST", "/register-purchase", 10000);
    });
    expect(await registerPurchaseWithTradeIn(slow, input)).toMatchObject({
      kind: "retry_later",
      reason: "timeout",
    });
  });

  it("skips the session check for a queued retry (the first attempt may have used the trade-in)", async () => {
    const client = fakeClient({ session_id: "h" }, async () => ({ duplicate: true }));
    expect(await registerPurchaseWithTradeIn(client, { ...input, precheck: false })).toEqual({
      kind: "registered",
      response: { duplicate: true },
    });
    expect(client.getSession).not.toHaveBeenCalled();
  });

  it("refuses a decimal amount before any call", async () => {
    const client = fakeClient({ session_id: "h", tradein_item: accepted }, async () => ({}));
    const outcome = await registerPurchaseWithTradeIn(client, { ...input, orderAmount: 10.5 });
    expect(outcome).toMatchObject({ kind: "not_applied", reason: "rejected" });
    expect(client.getSession).not.toHaveBeenCalled();
  });
});
