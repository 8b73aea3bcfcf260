import { describe, expect, it } from "vitest";
import { RateLimiter, WINDOW_MS } from "./rate-limit";

describe("RateLimiter", () => {
  it("allows `limit` hits per key and window, then tells how long to wait", () => {
    const limiter = new RateLimiter(2);
    const start = 10 * WINDOW_MS;
    expect(limiter.hit("a", start).ok).toBe(true);
    expect(limiter.hit("a", start + 1000).ok).toBe(true);
    expect(limiter.hit("a", start + 15_000)).toEqual({ ok: false, retryAfterSeconds: 45 });
    expect(limiter.hit("b", start + 15_000).ok).toBe(true);
    expect(limiter.hit("a", start + WINDOW_MS).ok).toBe(true);
  });

  it("never asks to wait less than a second", () => {
    const limiter = new RateLimiter(0);
    expect(limiter.hit("a", WINDOW_MS - 1)).toEqual({ ok: false, retryAfterSeconds: 1 });
  });
});
