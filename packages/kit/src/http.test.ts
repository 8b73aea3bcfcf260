import { describe, expect, it } from "vitest";
import { ServiceNetworkError, ServiceTimeoutError } from "./errors.js";
import {
  backoffDelay,
  buildUrl,
  defaultRetryPolicy,
  HttpTransport,
  parseRetryAfter,
  type RetryPolicy,
} from "./http.js";
import { createFakeDeps, reply } from "./test-support/fake-transport.js";

const BASE = "http://service.test";
const fastTimeout: RetryPolicy = { ...defaultRetryPolicy, timeoutMs: 5 };

describe("429 backoff", () => {
  it("waits 1 s, 2 s, 4 s (random 0.5 = no jitter) and returns the success", async () => {
    const { deps, calls, sleeps } = createFakeDeps((_call, i) =>
      i < 3 ? reply(429, { error: "rate_limit_exceeded" }) : reply(200, { ok: true }),
    );
    const response = await new HttpTransport(BASE, deps).send({ method: "GET", path: "/x/" });
    expect(response.status).toBe(200);
    expect(response.attempts).toBe(4);
    expect(sleeps).toEqual([1000, 2000, 4000]);
    expect(calls).toHaveLength(4);
  });

  it("is bounded: after maxAttempts the last 429 is returned to the caller", async () => {
    const { deps, calls, sleeps } = createFakeDeps(() => reply(429));
    const response = await new HttpTransport(BASE, deps).send({ method: "POST", path: "/y" });
    expect(response.status).toBe(429);
    expect(calls).toHaveLength(defaultRetryPolicy.maxAttempts);
    expect(sleeps).toHaveLength(defaultRetryPolicy.maxAttempts - 1);
  });

  it("caps the delay", async () => {
    const policy = { ...defaultRetryPolicy, maxAttempts: 7, maxDelayMs: 5000, jitterRatio: 0 };
    const { deps, sleeps } = createFakeDeps(() => reply(429));
    await new HttpTransport(BASE, deps, policy).send({ method: "GET", path: "/x/" });
    expect(sleeps).toEqual([1000, 2000, 4000, 5000, 5000, 5000]);
  });

  it("honours Retry-After seconds when longer than the backoff", async () => {
    const { deps, sleeps } = createFakeDeps((_c, i) =>
      i === 0 ? reply(429, undefined, { "Retry-After": "7" }) : reply(200, {}),
    );
    await new HttpTransport(BASE, deps).send({ method: "GET", path: "/x/" });
    expect(sleeps).toEqual([7000]);
  });

  it("never retries sooner than the backoff even if Retry-After is 0", async () => {
    const { deps, sleeps } = createFakeDeps((_c, i) =>
      i === 0 ? reply(429, undefined, { "Retry-After": "0" }) : reply(200, {}),
    );
    await new HttpTransport(BASE, deps).send({ method: "GET", path: "/x/" });
    expect(sleeps).toEqual([1000]);
  });

  it("honours Retry-After as an HTTP date", async () => {
    const { deps, sleeps, clock } = createFakeDeps((_c, i) =>
      i === 0
        ? reply(429, undefined, { "Retry-After": new Date(clock.now + 8_000).toUTCString() })
        : reply(200, {}),
    );
    await new HttpTransport(BASE, deps).send({ method: "GET", path: "/x/" });
    expect(sleeps).toEqual([8_000]);
  });

  it("does not hold the caller when Retry-After exceeds the cap", async () => {
    const { deps, calls, sleeps } = createFakeDeps(() =>
      reply(429, undefined, { "Retry-After": "3600" }),
    );
    const response = await new HttpTransport(BASE, deps).send({ method: "GET", path: "/x/" });
    expect(response.status).toBe(429);
    expect(calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});

describe("503", () => {
  it("retries after the Retry-After delay exactly", async () => {
    const { deps, sleeps } = createFakeDeps((_c, i) =>
      i === 0 ? reply(503, undefined, { "Retry-After": "2" }) : reply(200, {}),
    );
    await new HttpTransport(BASE, deps).send({ method: "POST", path: "/register-purchase" });
    expect(sleeps).toEqual([2000]);
  });

  it("returns a 503 whose Retry-After exceeds the cap instead of holding the caller", async () => {
    const { deps, calls, sleeps } = createFakeDeps(() =>
      reply(503, undefined, { "Retry-After": "30" }),
    );
    const response = await new HttpTransport(BASE, deps).send({ method: "GET", path: "/x/" });
    expect(response.status).toBe(503);
    expect(calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("falls back to the backoff schedule without Retry-After", async () => {
    const { deps, sleeps } = createFakeDeps((_c, i) => (i < 2 ? reply(503) : reply(200, {})));
    const response = await new HttpTransport(BASE, deps).send({ method: "GET", path: "/x/" });
    expect(response.status).toBe(200);
    expect(sleeps).toEqual([1000, 2000]);
  });
});

describe("non-retried statuses", () => {
  it.each([400, 401, 403, 404, 410, 500])("returns %i at once", async (status) => {
    const { deps, calls } = createFakeDeps(() => reply(status, { error: "x" }));
    const response = await new HttpTransport(BASE, deps).send({ method: "GET", path: "/x/" });
    expect(response.status).toBe(status);
    expect(calls).toHaveLength(1);
  });
});

describe("jitter", () => {
  it.each([
    [0, 800],
    [0.999999, 1200],
  ])("random %f keeps the first delay within ±20%% of 1 s", (random, expected) => {
    expect(backoffDelay(0, defaultRetryPolicy, () => random)).toBe(expected);
  });

  it("stays within bounds for every retry index", () => {
    for (let i = 0; i < 6; i++) {
      const nominal = Math.min(defaultRetryPolicy.maxDelayMs, 1000 * 2 ** i);
      for (const r of [0, 0.25, 0.5, 0.75, 0.9999]) {
        const delay = backoffDelay(i, defaultRetryPolicy, () => r);
        expect(delay).toBeGreaterThanOrEqual(nominal * 0.8);
        expect(delay).toBeLessThanOrEqual(nominal * 1.2);
      }
    }
  });
});

describe("timeouts and network failures", () => {
  it("retries a GET after a timeout", async () => {
    const { deps, calls } = createFakeDeps((_c, i) => (i === 0 ? "timeout" : reply(200, {})));
    const response = await new HttpTransport(BASE, deps, fastTimeout).send({
      method: "GET",
      path: "/x/",
    });
    expect(response.status).toBe(200);
    expect(calls).toHaveLength(2);
  });

  it("never repeats a POST after a timeout unless told it is safe", async () => {
    const { deps, calls } = createFakeDeps(() => "timeout");
    await expect(
      new HttpTransport(BASE, deps, fastTimeout).send({
        method: "POST",
        path: "/register-purchase",
      }),
    ).rejects.toBeInstanceOf(ServiceTimeoutError);
    expect(calls).toHaveLength(1);
  });

  it("repeats a POST after a timeout when marked safe", async () => {
    const { deps, calls } = createFakeDeps((_c, i) => (i === 0 ? "timeout" : reply(200, {})));
    await new HttpTransport(BASE, deps, fastTimeout).send({
      method: "POST",
      path: "/oauth2/token/",
      safeToRepeat: true,
    });
    expect(calls).toHaveLength(2);
  });

  it("does not repeat a POST after a reset connection, but does after a refused one", async () => {
    const reset = createFakeDeps(() => "network");
    await expect(
      new HttpTransport(BASE, reset.deps).send({ method: "POST", path: "/p" }),
    ).rejects.toBeInstanceOf(ServiceNetworkError);
    expect(reset.calls).toHaveLength(1);

    const refused = createFakeDeps((_c, i) => (i === 0 ? "refused" : reply(200, {})));
    const response = await new HttpTransport(BASE, refused.deps).send({
      method: "POST",
      path: "/p",
    });
    expect(response.status).toBe(200);
    expect(refused.calls).toHaveLength(2);
  });

  it("lets a call a shopper waits on make fewer and shorter attempts, never more or longer", async () => {
    const refused = createFakeDeps(() => "refused");
    await expect(
      new HttpTransport(BASE, refused.deps).send({ method: "GET", path: "/x/", maxAttempts: 1 }),
    ).rejects.toBeInstanceOf(ServiceNetworkError);
    expect(refused.calls).toHaveLength(1);
    expect(refused.sleeps).toEqual([]);
    // The policy's 10 s per attempt would hold this test; the request's 5 ms does not.
    const slow = createFakeDeps(() => "timeout");
    await expect(
      new HttpTransport(BASE, slow.deps).send({
        method: "GET",
        path: "/x/",
        maxAttempts: 1,
        timeoutMs: 5,
      }),
    ).rejects.toThrow(/5 ?ms/);
    const capped = createFakeDeps(() => reply(503));
    await new HttpTransport(BASE, capped.deps).send({ method: "GET", path: "/x/", maxAttempts: 9 });
    expect(capped.calls).toHaveLength(defaultRetryPolicy.maxAttempts);
  });

  it("gives up on a GET after maxAttempts timeouts", async () => {
    const { deps, calls } = createFakeDeps(() => "timeout");
    await expect(
      new HttpTransport(BASE, deps, fastTimeout).send({ method: "GET", path: "/x/" }),
    ).rejects.toBeInstanceOf(ServiceTimeoutError);
    expect(calls).toHaveLength(defaultRetryPolicy.maxAttempts);
  });

  it("keeps each attempt's time limit on the host's timeLimit: ended by hand it times the attempt out, an answer in time ends the wait", async () => {
    const limits: { ms: number; signal: AbortSignal; end: () => void }[] = [];
    const timeLimit = (ms: number, signal: AbortSignal) =>
      new Promise<void>((resolve) => {
        limits.push({ ms, signal, end: resolve });
        signal.addEventListener("abort", () => resolve());
      });
    // No answer: the attempt waits until the host's clock says its 10 s are over, never longer.
    const silent = createFakeDeps(() => "timeout");
    const sent = new HttpTransport(BASE, { ...silent.deps, timeLimit }).send({
      method: "POST",
      path: "/register/",
    });
    await expect.poll(() => limits.length).toBe(1);
    expect(limits[0]?.ms).toBe(defaultRetryPolicy.timeoutMs);
    expect(limits[0]?.signal.aborted).toBe(false);
    limits[0]?.end();
    await expect(sent).rejects.toThrow(/timed out after 10000 ms/);
    expect(silent.calls).toHaveLength(1);
    // An answer in time: its limit's wait is told to end (no timer left behind).
    const quick = createFakeDeps(() => reply(200, {}));
    await new HttpTransport(BASE, { ...quick.deps, timeLimit }).send({
      method: "GET",
      path: "/x/",
    });
    expect(limits[1]?.signal.aborted).toBe(true);
  });
});

describe("observer", () => {
  it("reports each attempt with status and planned wait", async () => {
    const events: unknown[] = [];
    const { deps } = createFakeDeps((_c, i) => (i === 0 ? reply(429) : reply(200, {})));
    await new HttpTransport(BASE, deps, defaultRetryPolicy, (e) => events.push(e)).send({
      method: "GET",
      path: "/core/merchants/",
    });
    expect(events).toEqual([
      {
        method: "GET",
        path: "/core/merchants/",
        attempt: 1,
        durationMs: 0,
        status: 429,
        retryInMs: 1000,
      },
      { method: "GET", path: "/core/merchants/", attempt: 2, durationMs: 0, status: 200 },
    ]);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.UTC(2026, 0, 1);
  it.each([
    ["3", 3000],
    [" 10 ", 10_000],
    [new Date(now + 5000).toUTCString(), 5000],
    [new Date(now - 5000).toUTCString(), 0],
  ])("%j → %i ms", (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each([null, "", "soon", "-1", "1.5"])("%j → undefined", (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});

describe("buildUrl", () => {
  it("keeps the path exactly and appends defined query values", () => {
    expect(
      buildUrl(BASE, "/payments/orders/", {
        status: "payment_completed",
        limit: 100,
        x: undefined,
      }),
    ).toBe("http://service.test/payments/orders/?status=payment_completed&limit=100");
    expect(buildUrl(BASE, "/register-purchase")).toBe("http://service.test/register-purchase");
  });
});
