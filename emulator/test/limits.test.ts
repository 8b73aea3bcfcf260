import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import {
  acceptedTradeIn,
  BASIC_CLIENT,
  b64,
  emulatorPerFile,
  errorOf,
  makeCart,
  tokenRequest,
} from "./harness";

// Contract: Limits (100 requests per minute, 429 rate_limit_exceeded), 500 with a correlation
// id, 503 maintenance; the emulator's fault injection; no input ever gives a bare 500.

const h = emulatorPerFile({
  modules: [
    {
      name: "test-boom",
      mount(app) {
        app.get("/test/boom", () => {
          throw new Error("boom");
        });
      },
    },
  ],
});
let token: string;
beforeEach(async () => {
  token = (await h.login()).access_token;
});

/** Moves the clock to the start of the next one-minute window, so a window never ends mid-test. */
async function freshWindow() {
  const next = Math.ceil((Date.now() + h.ctx.clock.offset + 1000) / 60_000) * 60_000;
  await h.control("POST", "/clock/set", { now: new Date(next).toISOString() });
}

describe("rate limit", () => {
  it("allows 100 requests per minute per client, then answers 429 with the limit and Retry-After", async () => {
    await freshWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await h.api(token, "/core/merchants/")).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const res = await h.api(token, "/core/merchants/");
    const retryAfter = Number(res.headers.get("retry-after"));
    const err = await errorOf(res);
    expect(err).toMatchObject({ status: 429, error: "rate_limit_exceeded" });
    expect(err.error_description).toContain("100 requests per minute");
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
  });

  it("counts per client, counts the token endpoint, and opens a new window after a minute on the clock", async () => {
    await h.control("PATCH", "/config", { rate_limit_per_minute: 3 });
    await freshWindow();
    expect((await h.api(token, "/core/merchants/")).status).toBe(200);
    expect((await h.api(token, "/core/merchants/")).status).toBe(200);
    const login = await tokenRequest(h.url, {
      grant_type: "password",
      username: "merchant-admin",
      password: "merchant-password",
    });
    expect(login.status).toBe(200);
    const limited = await tokenRequest(h.url, { grant_type: "refresh_token", refresh_token: "x" });
    const err = await errorOf(limited);
    expect(err).toMatchObject({ status: 429, error: "rate_limit_exceeded" });
    expect(err.error_description).toContain("3 requests per minute");
    // Another client is not affected.
    const other = await tokenRequest(
      h.url,
      { grant_type: "password", username: "basic-admin", password: "basic-password" },
      BASIC_CLIENT,
    );
    expect(other.status).toBe(200);
    await freshWindow();
    expect((await h.api((await login.json()).access_token, "/core/merchants/")).status).toBe(200);
  });

  it("can be raised through the control API", async () => {
    const res = await h.control("PATCH", "/config", { rate_limit_per_minute: 1000 });
    expect(await res.json()).toMatchObject({ rate_limit_per_minute: 1000 });
    for (let i = 0; i < 150; i++) expect((await h.api(token, "/core/merchants/")).status).toBe(200);
  });
});

describe("maintenance and failures", () => {
  it("answers 503 service_unavailable with Retry-After in maintenance; the control API keeps working", async () => {
    await h.control("PATCH", "/config", { maintenance: true });
    const res = await h.api(token, "/core/merchants/");
    expect(res.headers.get("retry-after")).toBe("30");
    expect(await errorOf(res)).toMatchObject({ status: 503, error: "service_unavailable" });
    const token503 = await tokenRequest(h.url, {
      grant_type: "password",
      username: "merchant-admin",
      password: "merchant-password",
    });
    expect(token503.status).toBe(503);
    expect((await h.control("GET", "/health")).status).toBe(200);
    await h.control("PATCH", "/config", { maintenance: false });
    expect((await h.api(token, "/core/merchants/")).status).toBe(200);
  });

  it("answers an unexpected internal failure with 500 internal_server_error and a correlation id", async () => {
    const res = await h.fetch("/test/boom");
    const id = res.headers.get("x-correlation-id");
    const err = await errorOf(res);
    expect(err).toMatchObject({ status: 500, error: "internal_server_error" });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(err.error_description).toContain(id);
  });
});

describe("fault injection", () => {
  it("injects a 500 with a correlation id on one endpoint, `count` times", async () => {
    const ti = await acceptedTradeIn(h);
    const fault = await (
      await h.control("POST", "/faults", { endpoint: "session", status: 500, count: 2 })
    ).json();
    expect(fault).toMatchObject({ endpoint: "session", status: 500, remaining: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await h.api(token, `/core/sessions/${ti.hash}/`);
      expect(res.headers.get("x-emulator-fault")).toBe(fault.id);
      const err = await errorOf(res);
      expect(err).toMatchObject({ status: 500, error: "internal_server_error" });
      expect(err.error_description).toMatch(/correlation id [0-9a-f-]{36}/);
    }
    expect((await h.api(token, `/core/sessions/${ti.hash}/`)).status).toBe(200);
    // Other endpoints were never affected.
    expect((await h.api(token, "/core/merchants/")).status).toBe(200);
    expect((await (await h.control("GET", "/faults")).json()).faults).toEqual([]);
  });

  it("injects latency on the clock: real time ends it, and so does moving the clock past it", async () => {
    await h.control("POST", "/faults", { endpoint: "merchants", latency_ms: 300, count: 1 });
    const started = performance.now();
    const res = await h.api(token, "/core/merchants/");
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    // Longer than any test waits: the request is answered once the clock is moved past it.
    await h.control("POST", "/faults", { endpoint: "merchants", latency_ms: 120_000, count: 1 });
    const held = h.api(token, "/core/merchants/");
    await expect
      .poll(async () => (await (await h.control("GET", "/faults")).json()).faults.length)
      .toBe(0);
    await h.control("POST", "/clock/advance", { seconds: 119 });
    const early = await Promise.race([held.then(() => "answered"), h.control("GET", "/clock")]);
    expect(early).not.toBe("answered");
    await h.control("POST", "/clock/advance", { seconds: 1 });
    expect((await held).status).toBe(200);
  });

  it("a request still waiting on a latency when the emulator is reset is refused and stays out of the next run's journal", async () => {
    await h.control("POST", "/faults", { endpoint: "merchants", latency_ms: 200 });
    const waiting = h.api(token, "/core/merchants/");
    // The fault has fired (the request is waiting) before the reset.
    await expect
      .poll(async () => (await (await h.control("GET", "/faults")).json()).faults[0]?.fired)
      .toBe(1);
    await h.control("POST", "/reset");
    const res = await waiting;
    expect(await errorOf(res)).toMatchObject({ status: 503, error: "service_unavailable" });
    const journal = (await (await h.control("GET", "/journal")).json()).entries;
    expect(journal.filter((e: { path?: string }) => e.path === "/core/merchants/")).toEqual([]);
    // Without the reset the same wait is answered from the state, and journaled.
    token = (await h.login()).access_token;
    await h.control("POST", "/faults", { endpoint: "merchants", latency_ms: 50 });
    expect((await h.api(token, "/core/merchants/")).status).toBe(200);
    const after = (await (await h.control("GET", "/journal")).json()).entries;
    expect(after.filter((e: { path?: string }) => e.path === "/core/merchants/")).toHaveLength(1);
  });

  it("injects 503 and 429 with Retry-After, by path prefix and method", async () => {
    await h.control("POST", "/faults", { endpoint: "/payments/", method: "GET", status: 503 });
    const listed = await h.api(token, "/payments/orders/");
    expect(listed.headers.get("retry-after")).toBeTruthy();
    expect(await errorOf(listed)).toMatchObject({ status: 503, error: "service_unavailable" });
    await h.control("DELETE", "/faults");
    await h.control("POST", "/faults", { endpoint: "*", status: 429, count: 1 });
    const limited = await h.api(token, "/core/merchants/");
    expect(limited.headers.get("retry-after")).toBeTruthy();
    expect(await errorOf(limited)).toMatchObject({ status: 429, error: "rate_limit_exceeded" });
  });

  it("sends the Retry-After a fault asks for", async () => {
    for (const status of [429, 503]) {
      await h.control("POST", "/faults", {
        endpoint: "merchants",
        status,
        count: 1,
        retry_after_seconds: 11,
      });
      const res = await h.api(token, "/core/merchants/");
      expect([res.status, res.headers.get("retry-after")]).toEqual([status, "11"]);
    }
  });

  it("honours probability: 0 never fires, 1 always does", async () => {
    const never = await (
      await h.control("POST", "/faults", { endpoint: "merchants", status: 500, probability: 0 })
    ).json();
    for (let i = 0; i < 20; i++) expect((await h.api(token, "/core/merchants/")).status).toBe(200);
    await h.control("DELETE", `/faults/${never.id}`);
    await h.control("POST", "/faults", {
      endpoint: "merchants",
      status: 502,
      probability: 1,
      error: "upstream",
      error_description: "Injected",
    });
    const err = await errorOf(await h.api(token, "/core/merchants/"));
    expect(err).toEqual({ status: 502, error: "upstream", error_description: "Injected" });
  });

  it("rejects a malformed fault rule with 400", async () => {
    const res = await h.control("POST", "/faults", { endpoint: "session", probability: 2 });
    expect(await errorOf(res)).toMatchObject({ status: 400, error: "bad_request" });
  });
});

describe("no input crashes the service or gives a bare 500", () => {
  const contractBody = (res: Response) =>
    res
      .json()
      .then(
        (b: Record<string, unknown>) =>
          typeof b.error === "string" && typeof b.error_description === "string",
      );

  it("register-purchase and orders update answer arbitrary JSON with a 4xx contract error", async () => {
    await h.control("PATCH", "/config", { rate_limit_per_minute: 100_000 });
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue(),
        fc.constantFrom("/register-purchase", "/payments/orders/update"),
        async (json, path) => {
          const res = await h.api(token, path, { method: "POST", json });
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
          expect(await contractBody(res)).toBe(true);
        },
      ),
      // Each case is a request over a socket: 60 of them (of any JSON shape) fit a third of the
      // time limit on one loaded core (npm run test:budget).
      { numRuns: 60 },
    );
  });

  it("arbitrary bodies, carts and token forms never give a 5xx", async () => {
    await h.control("PATCH", "/config", { rate_limit_per_minute: 100_000 });
    const ti = await acceptedTradeIn(h);
    await fc.assert(
      fc.asyncProperty(
        fc.string(),
        fc.oneof(fc.string(), fc.jsonValue().map(b64), fc.constant(b64(makeCart()))),
        fc.oneof(fc.integer(), fc.double(), fc.string()),
        async (raw, cart, amount) => {
          const a = await h.api(token, "/register-purchase", {
            method: "POST",
            body: raw,
            headers: { "content-type": "application/json" },
          });
          expect(a.status).toBeLessThan(500);
          const b = await h.api(token, "/register-purchase", {
            method: "POST",
            json: { session_hash: ti.hash, cart, order_amount: amount },
          });
          expect(b.status).toBeLessThan(500);
          const c = await fetch(`${h.url}/oauth2/token/`, {
            method: "POST",
            headers: {
              authorization: `Basic ${Buffer.from(`demo-client:${raw}`).toString("base64")}`,
              "content-type": "application/x-www-form-urlencoded",
            },
            body: raw,
          });
          expect(c.status).toBeLessThan(500);
          const d = await h.api(token, `/core/sessions/${encodeURIComponent(raw || "x")}/`);
          expect(d.status).toBeLessThan(500);
        },
      ),
      // Four requests a case: 40 of them fit a third of the time limit on one loaded core.
      { numRuns: 40 },
    );
  });

  it("answers an unknown path or method with a JSON 404", async () => {
    const res = await h.fetch("/nothing/here");
    expect(await errorOf(res)).toMatchObject({ status: 404, error: "not_found" });
    const wrongMethod = await h.api(token, "/core/merchants/", { method: "DELETE" });
    expect(wrongMethod.status).toBe(404);
  });
});
