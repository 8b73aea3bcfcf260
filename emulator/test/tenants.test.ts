import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_MERCHANTS } from "../src/routes/merchants";
import { webhooksFor } from "../src/webhooks/module";
import { emulatorPerFile, errorOf, type Harness, newHash, tokenRequest } from "./harness";

// Several merchants in one emulator (README, "Several merchants in one emulator"): two test
// workers clone the seed merchant under their own ids and credentials; a reset, a fault or a
// clock move of one merchant leaves the other as it was.

const h = emulatorPerFile();

interface Cloned {
  id: string;
  client: [string, string];
  username: string;
  password: string;
}

async function cloneMerchant(harness: Harness, id: string): Promise<Cloned> {
  const res = await harness.control("POST", "/merchants/m_demo/clone", { id });
  expect(res.status).toBe(201);
  const body = await res.json();
  return {
    id,
    client: [body.client.client_id, body.client.client_secret],
    username: body.user.username,
    password: body.user.password,
  };
}

const login = (m: Cloned) =>
  h.login({ client: m.client, username: m.username, password: m.password });

/** What one worker holds of its merchant: a token, an order, a valued trade-in. */
interface Holdings {
  token: string;
  orderId: string;
  tradeInId: string;
}

async function holdings(m: Cloned): Promise<Holdings> {
  const token = (await login(m)).access_token;
  const order = await h.control("POST", "/orders", {
    merchant_id: m.id,
    cart_id: `cart-${m.id}`,
    amount: 30250,
  });
  expect(order.status).toBe(201);
  const tradeIn = await h.control("POST", "/tradeins", {
    merchant_id: m.id,
    session_hash: newHash(),
  });
  expect(tradeIn.status).toBe(201);
  return {
    token,
    orderId: (await order.json()).order_id,
    tradeInId: (await tradeIn.json()).tradein_item.id,
  };
}

const orderIds = async (token: string) =>
  ((await (await h.api(token, "/payments/orders/")).json()).orders as { order_id: string }[]).map(
    (o) => o.order_id,
  );

let a: Cloned;
let b: Cloned;

beforeAll(async () => {
  a = await cloneMerchant(h, "m_worker_a");
  b = await cloneMerchant(h, "m_worker_b");
});

describe("POST /__emulator/merchants/{id}/clone", () => {
  it("gives a merchant of its own, with its own credentials, kept through a global reset", async () => {
    const token = await login(a);
    expect(token.merchant_id).toBe("m_worker_a");
    const { merchants } = await (await h.api(token.access_token, "/core/merchants/")).json();
    expect(merchants).toMatchObject([{ id: "m_worker_a", currency: "EUR" }]);
    // The other worker's credentials do not open this merchant.
    const crossed = await tokenRequest(
      h.url,
      { grant_type: "password", username: a.username, password: a.password },
      b.client,
    );
    expect(crossed.status).toBe(400);
    await h.control("POST", "/reset");
    expect((await login(a)).merchant_id).toBe("m_worker_a");
  });

  it("takes settings of its own and can be deleted again; seed merchants cannot", async () => {
    const res = await h.control("POST", "/merchants/m_basic/clone", {
      id: "m_worker_c",
      allowed_origins: ["http://localhost:5601"],
      webhook_base: "http://localhost:5601/api/service/webhooks",
      client_id: "worker-c",
      client_secret: "worker-c-secret",
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.merchant).toMatchObject({
      id: "m_worker_c",
      products: "valuations",
      allowed_origins: ["http://localhost:5601"],
    });
    expect(body.client).toEqual({ client_id: "worker-c", client_secret: "worker-c-secret" });
    expect(body.webhook_signing_key).toBe("u_m_worker_c_admin-m_worker_c");
    expect((await h.control("DELETE", "/merchants/m_worker_c")).status).toBe(200);
    const gone = await tokenRequest(
      h.url,
      { grant_type: "password", username: body.user.username, password: body.user.password },
      ["worker-c", "worker-c-secret"],
    );
    expect(gone.status).toBe(401);
    expect(await errorOf(await h.control("DELETE", "/merchants/m_demo"))).toMatchObject({
      status: 409,
      error: "conflict",
    });
  });

  it("holds at most 200 merchants, and answers this machine's tools only", async () => {
    // All but the last three places filled in the emulator's own state (as a clone fills them,
    // without its HTTP round trip): the cap is the route's, met over HTTP below; two hundred
    // requests there and back would only add time (npm run test:budget).
    const demo = h.ctx.state.getMerchant("m_demo");
    if (!demo) throw new Error("the seed has m_demo");
    const filled: string[] = [];
    while (h.ctx.state.merchants.size < MAX_MERCHANTS - 3) {
      const id = `m_filled_${filled.length}`;
      filled.push(id);
      h.ctx.state.addMerchant({ ...demo, id }, [], []);
    }
    const made: string[] = [];
    let res = await h.control("POST", "/merchants/m_demo/clone", { id: "m_many_0" });
    while (res.status === 201) {
      made.push((await res.json()).merchant.id);
      res = await h.control("POST", "/merchants/m_demo/clone", { id: `m_many_${made.length}` });
    }
    expect(await errorOf(res)).toMatchObject({ status: 409, error: "conflict" });
    const { merchants } = await (await h.control("GET", "/merchants")).json();
    expect(merchants).toHaveLength(200);
    expect(made).toHaveLength(3);
    for (const id of made) await h.control("DELETE", `/merchants/${id}`);
    for (const id of filled) h.ctx.state.removeMerchant(id);
    const foreign = await h.fetch("/__emulator/merchants/m_demo/clone", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: JSON.stringify({ id: "m_evil" }),
    });
    expect(await errorOf(foreign)).toMatchObject({ status: 403, error: "forbidden" });
  });

  it("refuses an unknown source (404), a bad body (400) and a taken id (409)", async () => {
    expect(
      await errorOf(await h.control("POST", "/merchants/m_nobody/clone", { id: "m_x" })),
    ).toMatchObject({ status: 404, error: "not_found" });
    for (const bad of [
      {},
      { id: "has space" },
      { id: "m_x", surprise: 1 },
      { id: "x".repeat(65) },
    ]) {
      expect(await errorOf(await h.control("POST", "/merchants/m_demo/clone", bad))).toMatchObject({
        status: 400,
        error: "bad_request",
      });
    }
    expect(
      await errorOf(await h.control("POST", "/merchants/m_demo/clone", { id: "m_worker_a" })),
    ).toMatchObject({ status: 409, error: "conflict" });
    expect(await errorOf(await h.control("DELETE", "/merchants/m_nobody"))).toMatchObject({
      status: 404,
    });
  });
});

describe("POST /__emulator/merchants/{id}/reset", () => {
  let heldA: Holdings;
  let heldB: Holdings;
  beforeEach(async () => {
    heldA = await holdings(a);
    heldB = await holdings(b);
  });

  it("puts A back to its creation state and leaves B's token, order and trade-in", async () => {
    await h.control("PATCH", "/merchants/m_worker_a", { name: "Renamed" });
    await h.control("POST", "/merchants/m_worker_a/clock", { hours: 2 });
    await h.control("POST", "/merchants/m_worker_b/clock", { minutes: 5 });
    const reset = await h.control("POST", "/merchants/m_worker_a/reset");
    expect(await reset.json()).toEqual({ status: "reset", merchant_id: "m_worker_a" });

    // A: token gone, order gone, trade-in gone, settings and clock as created.
    expect((await h.api(heldA.token, "/core/merchants/")).status).toBe(401);
    const fresh = (await login(a)).access_token;
    expect(await orderIds(fresh)).toEqual([]);
    expect((await h.api(fresh, `/core/tradeinitems/${heldA.tradeInId}/`)).status).toBe(404);
    const { merchants } = await (await h.api(fresh, "/core/merchants/")).json();
    expect(merchants[0].name).toBe("Demo Electronics (m_worker_a)");
    const clockA = await (await h.control("GET", "/merchants/m_worker_a/clock")).json();
    expect(clockA.merchant_offset_ms).toBe(0);

    // B: untouched.
    expect((await h.api(heldB.token, "/core/merchants/")).status).toBe(200);
    expect(await orderIds(heldB.token)).toEqual([heldB.orderId]);
    expect((await h.api(heldB.token, `/core/tradeinitems/${heldB.tradeInId}/`)).status).toBe(200);
    const clockB = await (await h.control("GET", "/merchants/m_worker_b/clock")).json();
    expect(clockB.merchant_offset_ms).toBeGreaterThanOrEqual(5 * 60_000);
  });

  it("drops A's journal entries and A's faults, keeps B's", async () => {
    await h.control("POST", "/faults", { endpoint: "orders_list", status: 500, merchant: a.id });
    await h.control("POST", "/faults", { endpoint: "orders_list", status: 500, merchant: b.id });
    await h.api(heldA.token, "/core/merchants/");
    await h.api(heldB.token, "/core/merchants/");
    await h.control("POST", "/merchants/m_worker_a/reset");
    const journal = (await (await h.control("GET", "/journal")).json()).entries as {
      merchant_id?: string;
    }[];
    expect(journal.some((e) => e.merchant_id === a.id)).toBe(false);
    expect(journal.some((e) => e.merchant_id === b.id)).toBe(true);
    const faults = (await (await h.control("GET", "/faults")).json()).faults;
    expect(faults.map((f: { merchant: string }) => f.merchant)).toEqual([b.id]);
  });

  it("answers 503 to A's request in flight across A's reset, and keeps it out of the journal; B's goes through", async () => {
    await h.control("POST", "/faults", { endpoint: "merchants", latency_ms: 200 });
    const waitingA = h.api(heldA.token, "/core/merchants/");
    const waitingB = h.api(heldB.token, "/core/merchants/");
    await expect
      .poll(async () => (await (await h.control("GET", "/faults")).json()).faults[0]?.fired)
      .toBe(2);
    await h.control("POST", "/merchants/m_worker_a/reset");
    expect(await errorOf(await waitingA)).toMatchObject({
      status: 503,
      error: "service_unavailable",
    });
    expect((await waitingB).status).toBe(200);
    const entries = (await (await h.control("GET", "/journal")).json()).entries as {
      path: string;
      merchant_id?: string;
    }[];
    const merchantsCalls = entries.filter((e) => e.path === "/core/merchants/");
    expect(merchantsCalls.map((e) => e.merchant_id)).toEqual([b.id]);
  });

  it("refuses an unknown merchant (404) and a body other than {} (400)", async () => {
    expect(await errorOf(await h.control("POST", "/merchants/m_nobody/reset"))).toMatchObject({
      status: 404,
      error: "not_found",
    });
    expect(
      await errorOf(await h.control("POST", "/merchants/m_worker_a/reset", { all: true })),
    ).toMatchObject({ status: 400, error: "bad_request" });
    // Nothing was reset by the refused call.
    expect((await h.api(heldA.token, "/core/merchants/")).status).toBe(200);
  });
});

describe("faults with a merchant", () => {
  it("fault only A's requests; B's and unscoped faults behave as before", async () => {
    const tokenA = (await login(a)).access_token;
    const tokenB = (await login(b)).access_token;
    const added = await h.control("POST", "/faults", {
      endpoint: "merchants",
      status: 503,
      merchant: a.id,
    });
    expect(added.status).toBe(201);
    const faulted = await h.api(tokenA, "/core/merchants/");
    expect(faulted.status).toBe(503);
    expect(faulted.headers.get("x-emulator-fault")).toBe((await added.json()).id);
    const clean = await h.api(tokenB, "/core/merchants/");
    expect(clean.status).toBe(200);
    expect(clean.headers.get("x-emulator-fault")).toBeNull();

    // The token endpoint: addressed to a merchant by its client's Basic credentials.
    await h.control("POST", "/faults", { endpoint: "token", status: 500, merchant: b.id });
    expect((await login(a)).merchant_id).toBe(a.id);
    const refused = await tokenRequest(
      h.url,
      { grant_type: "password", username: b.username, password: b.password },
      b.client,
    );
    expect(refused.status).toBe(500);

    // The SDK routes: addressed to a merchant by the merchant_id of their query or body.
    await h.control("POST", "/faults", { endpoint: "/sdk/v1/", status: 500, merchant: a.id });
    expect((await h.fetch(`/sdk/v1/catalog?merchant_id=${a.id}`)).status).toBe(500);
    expect((await h.fetch(`/sdk/v1/catalog?merchant_id=${b.id}`)).status).toBe(200);
    const init = (m: Cloned) =>
      h.fetch("/sdk/v1/init", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ merchant_id: m.id, session_hash: null, customer: null }),
      });
    expect((await init(a)).status).toBe(500);
    expect((await init(b)).status).not.toBe(500);

    // A fault without a merchant still hits everyone.
    await h.control("POST", "/faults", { endpoint: "orders_list", status: 429, count: 2 });
    expect((await h.api(tokenA, "/payments/orders/")).status).toBe(429);
    expect((await h.api(tokenB, "/payments/orders/")).status).toBe(429);
    const listed = await (await h.control("GET", `/faults?merchant=${a.id}`)).json();
    expect(listed.faults).toHaveLength(2);
  });

  it("refuses a fault for an unknown merchant (404) or a bad merchant field (400)", async () => {
    expect(
      await errorOf(
        await h.control("POST", "/faults", { endpoint: "*", status: 500, merchant: "m_nobody" }),
      ),
    ).toMatchObject({ status: 404, error: "not_found" });
    for (const merchant of ["", 7]) {
      expect(
        await errorOf(await h.control("POST", "/faults", { endpoint: "*", status: 500, merchant })),
      ).toMatchObject({ status: 400, error: "bad_request" });
    }
    expect((await (await h.control("GET", "/faults")).json()).faults).toEqual([]);
  });

  it("takes delivery faults for one merchant, and refuses an unknown one (404) or a bad field (400)", async () => {
    const scoped = await h.control("POST", "/webhooks/delivery-faults", {
      faults: ["unreachable"],
      merchant: a.id,
    });
    expect(scoped.status).toBe(200);
    expect(await scoped.json()).toEqual({ merchant: a.id, delivery_faults: ["unreachable"] });
    // Not among the unscoped ones every merchant's attempts take.
    expect((await (await h.control("GET", "/webhooks")).json()).delivery_faults).toEqual([]);
    expect(
      await errorOf(
        await h.control("POST", "/webhooks/delivery-faults", {
          faults: ["unreachable"],
          merchant: "m_nobody",
        }),
      ),
    ).toMatchObject({ status: 404, error: "not_found" });
    expect(
      await errorOf(
        await h.control("POST", "/webhooks/delivery-faults", {
          faults: ["unreachable"],
          merchant: 7,
        }),
      ),
    ).toMatchObject({ status: 400, error: "bad_request" });
    await h.control("POST", `/merchants/${a.id}/reset`);
  });
});

describe("POST /__emulator/merchants/{id}/clock", () => {
  it("moves A's clock only: A's token and valuation expire, B's stay valid", async () => {
    const heldA = await holdings(a);
    const heldB = await holdings(b);
    // Contract: access tokens live one hour.
    await h.control("POST", "/merchants/m_worker_a/clock", { minutes: 61 });
    expect((await h.api(heldA.token, "/core/merchants/")).status).toBe(401);
    expect((await h.api(heldB.token, "/core/merchants/")).status).toBe(200);
    // Valuations are valid 48 hours (README, fidelity table).
    await h.control("POST", "/merchants/m_worker_a/clock", { hours: 48 });
    const tokenA = (await login(a)).access_token;
    expect((await h.api(tokenA, `/core/tradeinitems/${heldA.tradeInId}/`)).status).toBe(410);
    expect((await h.api(heldB.token, `/core/tradeinitems/${heldB.tradeInId}/`)).status).toBe(200);
    // The emulator clock itself did not move.
    expect((await (await h.control("GET", "/clock")).json()).offset_ms).toBe(0);
  });

  it("the SDK's init answers each merchant's own clock, the one that dates its offers", async () => {
    await h.control("POST", "/merchants/m_worker_a/clock", { hours: 3 });
    const nowOf = async (m: Cloned) => {
      const res = await h.fetch("/sdk/v1/init", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ merchant_id: m.id, session_hash: null, customer: null }),
      });
      const answer = await res.json();
      expect(res.status, JSON.stringify(answer)).toBe(200);
      return Date.parse(answer.now);
    };
    const [nowA, nowB] = [await nowOf(a), await nowOf(b)];
    const clockA = await (await h.control("GET", "/merchants/m_worker_a/clock")).json();
    expect(Math.abs(nowA - clockA.now_ms), "A's init: A's clock").toBeLessThan(60_000);
    expect(nowA - nowB, "A three hours ahead of B").toBeGreaterThan(3 * 3_600_000 - 60_000);
    expect(Math.abs(nowB - Date.now()), "B's init: the emulator clock").toBeLessThan(60_000);
  });

  it("expires A's sessions only", async () => {
    const hashes = { [a.id]: newHash(), [b.id]: newHash() };
    for (const m of [a, b]) {
      const res = await h.control("POST", "/sessions", {
        merchant_id: m.id,
        session_hash: hashes[m.id],
      });
      expect(res.status).toBe(201);
    }
    // Sessions live 72 hours after they were last bound (README, fidelity table).
    await h.control("POST", "/merchants/m_worker_a/clock", { hours: 73 });
    const tokenA = (await login(a)).access_token;
    const tokenB = (await login(b)).access_token;
    expect((await h.api(tokenA, `/core/sessions/${hashes[a.id]}/`)).status).toBe(404);
    expect((await h.api(tokenB, `/core/sessions/${hashes[b.id]}/`)).status).toBe(200);
  });

  it("freezes A's clock, sets it, and puts it back; moving the emulator clock moves both", async () => {
    const frozen = await (
      await h.control("POST", "/merchants/m_worker_a/clock", {
        now: "2030-01-01T00:00:00.000Z",
        freeze: true,
      })
    ).json();
    expect(frozen).toMatchObject({
      merchant_id: a.id,
      now: "2030-01-01T00:00:00.000Z",
      frozen: true,
    });
    const advanced = await (
      await h.control("POST", "/merchants/m_worker_a/clock", { seconds: 30 })
    ).json();
    expect(advanced.now).toBe("2030-01-01T00:00:30.000Z");
    expect((await (await h.control("GET", "/merchants/m_worker_b/clock")).json()).frozen).toBe(
      false,
    );
    await h.control("POST", "/clock/advance", { minutes: 1 });
    expect((await (await h.control("GET", "/merchants/m_worker_a/clock")).json()).now).toBe(
      "2030-01-01T00:01:30.000Z",
    );
    expect(
      (await (await h.control("GET", "/merchants/m_worker_b/clock")).json()).offset_ms,
    ).toBeGreaterThanOrEqual(60_000);
    const back = await (
      await h.control("POST", "/merchants/m_worker_a/clock", { reset: true })
    ).json();
    expect(back).toMatchObject({ frozen: false, merchant_offset_ms: 0 });
  });

  it("opens a new rate-limit window for A's client only", async () => {
    // The emulator clock stands still, so no real minute boundary passes during the test.
    await h.control("POST", "/clock/set", { now: "2030-01-01T00:00:10.000Z", freeze: true });
    const tokenA = (await login(a)).access_token; // the token request counts: 1
    const tokenB = (await login(b)).access_token;
    await h.control("PATCH", "/config", { rate_limit_per_minute: 2 });
    for (const token of [tokenA, tokenB]) {
      expect((await h.api(token, "/core/merchants/")).status).toBe(200);
      expect((await h.api(token, "/core/merchants/")).status).toBe(429);
    }
    await h.control("POST", "/merchants/m_worker_a/clock", { minutes: 1 });
    expect((await h.api(tokenA, "/core/merchants/")).status).toBe(200);
    expect((await h.api(tokenB, "/core/merchants/")).status).toBe(429);
  });

  it("fires A's due webhook retries only; A's reset empties A's queue only", async () => {
    // Nothing listens on this port (the brief's range): every attempt fails, a retry is due 10 s on.
    for (const m of [a, b]) {
      await h.control("PATCH", `/merchants/${m.id}`, {
        webhook_base: "http://127.0.0.1:5699/hooks",
      });
      const res = await h.control("POST", "/orders", {
        merchant_id: m.id,
        cart_id: `cart-${m.id}`,
        amount: 30250,
        status: "payment_completed",
      });
      const { order_id } = await res.json();
      const order = h.ctx.state.findOrder(m.id, order_id);
      if (!order) throw new Error("order not stored");
      webhooksFor(h.ctx).notifyOrder(order);
    }
    type Listed = { merchant_id: string; attempts: unknown[]; failures: number };
    const queue = async () =>
      ((await (await h.control("GET", "/webhooks")).json()).notifications as Listed[]).map((n) => [
        n.merchant_id,
        n.failures,
      ]);
    await expect.poll(queue).toEqual([
      [a.id, 1],
      [b.id, 1],
    ]);
    await h.control("POST", "/merchants/m_worker_a/clock", { seconds: 10 });
    await expect.poll(queue).toEqual([
      [a.id, 2],
      [b.id, 1],
    ]);
    await h.control("POST", "/merchants/m_worker_a/reset");
    expect(await queue()).toEqual([[b.id, 1]]);
  });

  it("is saved with the state: a snapshot put back keeps A's clock, A's order and A's credentials", async () => {
    const heldA = await holdings(a);
    await h.control("POST", "/merchants/m_worker_a/clock", { hours: 2 });
    const saved = await (await h.control("GET", "/state")).json();
    expect(Object.keys(saved.merchant_clocks)).toEqual([a.id]);
    await h.control("POST", "/reset");
    expect((await h.control("PUT", "/state", saved)).status).toBe(200);
    const clockA = await (await h.control("GET", "/merchants/m_worker_a/clock")).json();
    expect(clockA.merchant_offset_ms).toBeGreaterThanOrEqual(2 * 3_600_000);
    const clockB = await (await h.control("GET", "/merchants/m_worker_b/clock")).json();
    expect(clockB.merchant_offset_ms).toBe(0);
    // A's token expired on A's clock (two hours on); its credentials came back with the state.
    expect((await h.api(heldA.token, "/core/merchants/")).status).toBe(401);
    const fresh = await login(a);
    expect(fresh.merchant_id).toBe(a.id);
    expect(await orderIds(fresh.access_token)).toEqual([heldA.orderId]);
  });

  it("refuses an unknown merchant (404) and a bad body (400)", async () => {
    expect(
      await errorOf(await h.control("POST", "/merchants/m_nobody/clock", { minutes: 1 })),
    ).toMatchObject({ status: 404, error: "not_found" });
    expect(await errorOf(await h.control("GET", "/merchants/m_nobody/clock"))).toMatchObject({
      status: 404,
    });
    for (const bad of [
      {},
      { minutes: "5" },
      { now: "not a time" },
      { reset: true, minutes: 1 },
      { now: "2030-01-01T00:00:00Z", hours: 1 },
      { later: 1 },
    ]) {
      expect(
        await errorOf(await h.control("POST", "/merchants/m_worker_a/clock", bad)),
      ).toMatchObject({ status: 400, error: "bad_request" });
    }
    const clockA = await (await h.control("GET", "/merchants/m_worker_a/clock")).json();
    expect(clockA.merchant_offset_ms).toBe(0);
  });
});

describe("GET /__emulator/journal?merchant=", () => {
  it("lists one merchant's requests only", async () => {
    const tokenA = (await login(a)).access_token;
    const tokenB = (await login(b)).access_token;
    await h.api(tokenA, "/core/merchants/");
    await h.api(tokenB, "/payments/orders/");
    const onlyA = (await (await h.control("GET", `/journal?merchant=${a.id}`)).json()).entries as {
      path: string;
      merchant_id: string;
    }[];
    expect(onlyA.map((e) => e.path)).toEqual(["/oauth2/token/", "/core/merchants/"]);
    expect(new Set(onlyA.map((e) => e.merchant_id))).toEqual(new Set([a.id]));
  });

  it("refuses an unknown merchant (404) and an empty one (400)", async () => {
    expect(await errorOf(await h.control("GET", "/journal?merchant=m_nobody"))).toMatchObject({
      status: 404,
      error: "not_found",
    });
    expect(await errorOf(await h.control("GET", "/journal?merchant="))).toMatchObject({
      status: 400,
      error: "bad_request",
    });
  });
});
