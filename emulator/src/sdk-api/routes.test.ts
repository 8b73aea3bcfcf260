import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmulator, type RunningEmulator } from "../app";

// The SDK-to-service routes and the webhook control API over HTTP, as the browser SDK and a
// test would call them, with a real merchant webhook receiver.

const ORIGIN = "http://localhost:3000";
const HASH = "a".repeat(64);
let running: RunningEmulator;
let url: string;
let receiver: Server;
const received: { raw: string; signature: string }[] = [];

async function sdk(path: string, body?: unknown, origin = ORIGIN): Promise<Response> {
  return fetch(`${url}/sdk/v1${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { origin, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function control(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${url}/__emulator${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const address = {
  given_name: "Ana",
  family_name: "García",
  phone: "+34600000000",
  address: "Calle Mayor 1",
  city: "Madrid",
  state: "Madrid",
  country_code: "ES",
  postal_code: "28013",
};

/** Purchase data as a merchant's purchase_data answers it (contract: Purchase data). */
const purchase = (total: number) => ({
  cart: {
    id: `cart-${total}`,
    currency: "EUR",
    items: [
      {
        id: "i",
        name: "Thing",
        description: "",
        url: "",
        quantity: 1,
        price: total,
        tax: 0,
        total,
      },
    ],
    price: total,
    tax: 0,
    total,
  },
  billing: address,
  shipping: { address, method: { id: "standard", name: "Standard" } },
  customer: { id: "cust-1", email: "c@example.test" },
});

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      received.push({ raw, signature: String(req.headers["x-service-signature"]) });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const port = (receiver.address() as AddressInfo).port;
  running = await createEmulator().listen(0, "127.0.0.1");
  url = running.url;
  const patched = await control("PATCH", "/merchants/m_demo", {
    webhook_base: `http://127.0.0.1:${port}/hooks`,
  });
  expect(patched.status).toBe(200);
});

afterAll(async () => {
  await running.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

describe("CORS", () => {
  it("answers preflights for allowed origins only", async () => {
    const ok = await fetch(`${url}/sdk/v1/init`, {
      method: "OPTIONS",
      headers: { origin: ORIGIN, "access-control-request-method": "POST" },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(ok.headers.get("access-control-allow-headers")).toBe("content-type");
    const no = await fetch(`${url}/sdk/v1/init`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(no.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("refuses a merchant's routes from an origin it did not register", async () => {
    const response = await sdk(
      "/init",
      { merchant_id: "m_demo", session_hash: HASH, customer: null },
      "https://evil.example",
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: "forbidden" });
  });

  // An injected fault or the maintenance switch stands for the service's own error answer: the
  // page must be able to read it (status and body), as it reads the real service's, so a test of
  // the SDK's error handling is not a test of a CORS failure.
  it("answers an injected fault on the SDK's routes, and maintenance, with the CORS headers", async () => {
    const init = { merchant_id: "m_demo", session_hash: HASH, customer: null };
    const added = await control("POST", "/faults", {
      endpoint: "/sdk/v1/init",
      status: 503,
      count: 1,
    });
    expect(added.status).toBe(201);
    const faulted = await sdk("/init", init);
    expect(faulted.status).toBe(503);
    expect(faulted.headers.get("x-emulator-fault")).not.toBeNull();
    expect(faulted.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(await faulted.json()).toMatchObject({ error: "service_unavailable" });
    const foreign = await control("POST", "/faults", {
      endpoint: "/sdk/v1/init",
      status: 500,
      count: 1,
    });
    expect(foreign.status).toBe(201);
    const refused = await sdk("/init", init, "https://evil.example");
    expect(refused.status).toBe(500);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();

    expect((await control("PATCH", "/config", { maintenance: true })).status).toBe(200);
    try {
      const preflight = await fetch(`${url}/sdk/v1/init`, {
        method: "OPTIONS",
        headers: { origin: ORIGIN, "access-control-request-method": "POST" },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe(ORIGIN);
      const down = await sdk("/init", init);
      expect(down.status).toBe(503);
      expect(down.headers.get("access-control-allow-origin")).toBe(ORIGIN);
      const bundle = await fetch(`${url}/assets/v1/main.js`, { headers: { origin: ORIGIN } });
      await bundle.arrayBuffer();
      expect(bundle.status).toBe(503);
      expect(bundle.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    } finally {
      await control("PATCH", "/config", { maintenance: false });
    }
  });
});

describe("validation", () => {
  it("rejects a decimal amount in the cart with 400", async () => {
    const cart = purchase(1000);
    cart.cart.total = 10.5;
    const response = await sdk("/payment-option", {
      merchant_id: "m_demo",
      session_hash: HASH,
      products: "valuations+ep1",
      locale: "en",
      purchase: cart,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: "bad_request",
      error_description: expect.stringContaining("purchase.cart.total"),
    });
  });

  it("rejects malformed JSON and unknown merchants without a 500", async () => {
    const bad = await fetch(`${url}/sdk/v1/init`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN },
      body: "{not json",
    });
    expect(bad.status).toBe(400);
    const unknown = await sdk("/init", {
      merchant_id: "m_nope",
      session_hash: HASH,
      customer: null,
    });
    expect(unknown.status).toBe(404);
    const unbound = await sdk("/valuations", {
      merchant_id: "m_demo",
      session_hash: "b".repeat(64),
      model_id: "phone-aurora-14",
      answers: {},
    });
    expect(unbound.status).toBe(404);
  });

  it("takes only a body that says it is JSON: text/plain or none is refused 415, and starts no session", async () => {
    const hash = "c".repeat(64);
    const notJson: Record<string, string>[] = [{ "content-type": "text/plain" }, {}];
    for (const headers of notJson) {
      const refused = await fetch(`${url}/sdk/v1/init`, {
        method: "POST",
        headers: { origin: ORIGIN, ...headers },
        body: JSON.stringify({ merchant_id: "m_demo", session_hash: hash, customer: null }),
      });
      expect(refused.status).toBe(415);
      expect(await refused.json()).toEqual({
        error: "unsupported_media_type",
        error_description: "The SDK's calls are JSON: Content-Type: application/json.",
      });
    }
    const unbound = await sdk("/valuations", {
      merchant_id: "m_demo",
      session_hash: hash,
      model_id: "phone-aurora-14",
      answers: {},
    });
    expect(unbound.status).toBe(404);
    const charset = await fetch(`${url}/sdk/v1/init`, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ merchant_id: "m_demo", session_hash: "d".repeat(64), customer: null }),
    });
    expect(charset.status).toBe(200);
  });
});

describe("valuation, payment and webhook over HTTP", () => {
  it("runs the Service Pay path and the signed webhook reaches the merchant", async () => {
    const init = await sdk("/init", {
      merchant_id: "m_demo",
      session_hash: HASH,
      customer: { id: "cust-1", email: "c@example.test" },
    });
    expect(await init.json()).toMatchObject({
      session_id: HASH,
      tradein: null,
      earlier_valuation: false,
      merchant_currency: "EUR",
    });

    const catalog = await (await sdk("/catalog?merchant_id=m_demo")).json();
    const phone = catalog.categories[0].models.find(
      (m: { id: string }) => m.id === "phone-aurora-14",
    );
    const answers = Object.fromEntries(
      phone.questions.map((q: { id: string; options: { id: string }[] }) => [
        q.id,
        q.options[0]?.id,
      ]),
    );
    const incomplete = await sdk("/valuations", {
      merchant_id: "m_demo",
      session_hash: HASH,
      model_id: phone.id,
      answers: {},
    });
    expect(incomplete.status).toBe(400);
    const offered = await sdk("/valuations", {
      merchant_id: "m_demo",
      session_hash: HASH,
      model_id: phone.id,
      answers,
    });
    expect(offered.status).toBe(201);
    const offer = await offered.json();
    expect(offer).toMatchObject({
      device: "Aurora 14",
      value: 30000,
      currency: "EUR",
      status: "offered",
    });

    // Not accepted yet: Service Pay is not possible.
    const early = await sdk("/payments", {
      merchant_id: "m_demo",
      session_hash: HASH,
      method: "card",
      purchase: purchase(90000),
    });
    expect(early.status).toBe(409);

    const accepted = await sdk(`/valuations/${offer.id}/accept`, {
      merchant_id: "m_demo",
      session_hash: HASH,
    });
    expect(await accepted.json()).toMatchObject({ id: offer.id, status: "accepted" });

    const option = await (
      await sdk("/payment-option", {
        merchant_id: "m_demo",
        session_hash: HASH,
        products: "valuations+ep1",
        locale: "en",
        purchase: purchase(90000),
      })
    ).json();
    expect(option.details).toMatchObject({ mode: "tradein_valid", data: { valuation: 30000 } });

    const started = await sdk("/payments", {
      merchant_id: "m_demo",
      session_hash: HASH,
      method: "card",
      purchase: purchase(90000),
    });
    expect(started.status).toBe(201);
    const order = await started.json();
    expect(order).toMatchObject({ status: "pending", amount: 90000, trade_in_discount: 30000 });
    // A second click reuses the pending order.
    const again = await (
      await sdk("/payments", {
        merchant_id: "m_demo",
        session_hash: HASH,
        method: "card",
        purchase: purchase(90000),
      })
    ).json();
    expect(again.order_id).toBe(order.order_id);

    const done = await sdk(`/payments/${order.order_id}/complete`, {
      merchant_id: "m_demo",
      session_hash: HASH,
    });
    expect(await done.json()).toMatchObject({
      order_id: order.order_id,
      status: "payment_completed",
    });
    const twice = await sdk(`/payments/${order.order_id}/complete`, {
      merchant_id: "m_demo",
      session_hash: HASH,
    });
    expect(twice.status).toBe(200);

    // The notification, its first attempt and its journal entry.
    let list: { notifications: { id: string; status: string; order_id: string }[] } = {
      notifications: [],
    };
    for (let i = 0; i < 50 && list.notifications[0]?.status !== "delivered"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      list = await (await control("GET", "/webhooks")).json();
    }
    expect(list.notifications).toEqual([
      expect.objectContaining({ order_id: order.order_id, status: "delivered" }),
    ]);
    expect(received).toHaveLength(1);
    const first = received[0] as { raw: string; signature: string };
    expect(first.signature).toBe(
      createHmac("sha256", "u_demo_admin-m_demo").update(first.raw).digest("hex"),
    );
    expect(JSON.parse(first.raw)).toMatchObject({
      order_id: order.order_id,
      status: "payment_completed",
      amount: 90000,
    });
    const journal = await (await control("GET", "/journal?kind=webhook")).json();
    expect(JSON.stringify(journal)).toContain(list.notifications[0]?.id as string);

    // The trade-in is used: the session has no active trade-in any more.
    const reinit = await (
      await sdk("/init", { merchant_id: "m_demo", session_hash: HASH, customer: null })
    ).json();
    expect(reinit.tradein).toBeNull();

    // Control operations over HTTP.
    const id = list.notifications[0]?.id as string;
    expect(
      (await (await control("POST", `/webhooks/${id}/redeliver`)).json()).attempt,
    ).toMatchObject({ status: 200, kind: "redeliver" });
    expect((await (await control("POST", `/webhooks/${id}/twice`)).json()).attempts).toHaveLength(
      2,
    );
    expect(
      (await (await control("POST", `/webhooks/${id}/wrong-signature`)).json()).attempt,
    ).toMatchObject({ kind: "wrong_signature" });
    expect((await control("POST", `/webhooks/${id}/delay`, { seconds: 30 })).status).toBe(200);
    expect((await control("POST", "/webhooks/reorder", { earlier: id, later: id })).status).toBe(
      200,
    );
    expect((await control("POST", "/webhooks/wh_nope/redeliver")).status).toBe(404);
    expect((await control("POST", `/webhooks/${id}/delay`, { seconds: -1 })).status).toBe(400);
    const bad = received.at(-3) as { raw: string; signature: string };
    expect(received.length).toBe(1 + 1 + 2 + 1 + 2);
    expect(bad.signature).not.toBe(
      createHmac("sha256", "u_demo_admin-m_demo").update(bad.raw).digest("hex"),
    );
  });
});
