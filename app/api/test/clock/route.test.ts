import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonRequest, setUpTestShop } from "@/test-support/test-shop";

// The shop's test clock exists only in a build made with SHOP_TEST_CLOCK=1 (next.config.ts
// inlines it at build time; here the module reads it when it is loaded).
setUpTestShop();

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

const advance = (seconds: unknown) =>
  jsonRequest("http://shop.test/api/test/clock", { advance_seconds: seconds });

describe("POST /api/test/clock", () => {
  it("is not there in a build without the test clock: 404, and the shop's time is real", async () => {
    vi.stubEnv("SHOP_TEST_CLOCK", "");
    const { POST } = await import("./route");
    const { shopNow } = await import("@/lib/service-adapter/shop-clock");
    const res = await POST(advance(3600));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "not_found", error_description: "Not found." });
    expect(Math.abs(shopNow().getTime() - Date.now())).toBeLessThan(1000);
  });

  it("in a test build moves the shop's clock forward and runs the retry job at the new time", async () => {
    vi.stubEnv("SHOP_TEST_CLOCK", "1");
    const { POST } = await import("./route");
    const { shopNow } = await import("@/lib/service-adapter/shop-clock");
    const before = shopNow().getTime();
    const res = await POST(advance(11));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(new Date(body.now).getTime() - before).toBeGreaterThanOrEqual(11_000);
    expect(body.retry_job).toMatchObject({ due: 0 });
    expect(shopNow().getTime() - Date.now()).toBeGreaterThanOrEqual(10_900);
    // Only forward, in whole seconds.
    for (const bad of [-1, 1.5, "11"]) expect((await POST(advance(bad))).status).toBe(400);
  });

  it("stops the clock where it stands until let run again, which goes on from there, never back", async () => {
    vi.stubEnv("SHOP_TEST_CLOCK", "1");
    const { POST } = await import("./route");
    const { shopNow } = await import("@/lib/service-adapter/shop-clock");
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const clock = (body: object) => POST(jsonRequest("http://shop.test/api/test/clock", body));
      expect((await clock({ advance_seconds: 0, freeze: true })).status).toBe(200);
      const stopped = shopNow().getTime();
      vi.setSystemTime(Date.now() + 60_000);
      expect(shopNow().getTime()).toBe(stopped);
      const res = await clock({ advance_seconds: 6 });
      expect(new Date((await res.json()).now).getTime()).toBe(stopped + 6_000);
      expect(shopNow().getTime()).toBe(stopped + 6_000);
      await clock({ advance_seconds: 0, freeze: false });
      expect(shopNow().getTime()).toBe(stopped + 6_000);
      vi.setSystemTime(Date.now() + 10_000);
      expect(shopNow().getTime()).toBe(stopped + 16_000);
      for (const bad of [
        { advance_seconds: 0, freeze: "yes" },
        { advance_seconds: 0, stop: true },
      ])
        expect((await clock(bad)).status).toBe(400);
    } finally {
      vi.useRealTimers();
    }
  });

  it("ends a wait on the shop's clock once the clock is moved past it, no sooner; an abort ends it too", async () => {
    vi.stubEnv("SHOP_TEST_CLOCK", "1");
    const { advanceShopClock, freezeShopClock, shopSleep } = await import(
      "@/lib/service-adapter/shop-clock"
    );
    const settled = () => new Promise((resolve) => setImmediate(resolve));
    // Stopped: only the suite's moves end a wait (the card checkout's 8 s, a call's 10 s).
    freezeShopClock(true);
    const ended: string[] = [];
    const never = new AbortController().signal;
    void shopSleep(10_000, never).then(() => ended.push("10 s"));
    void shopSleep(8_000, never).then(() => ended.push("8 s"));
    const cancelled = new AbortController();
    void shopSleep(60_000, cancelled.signal).then(() => ended.push("aborted"));
    advanceShopClock(7_999);
    await settled();
    expect(ended).toEqual([]);
    advanceShopClock(1);
    await settled();
    expect(ended).toEqual(["8 s"]);
    cancelled.abort();
    await settled();
    expect(ended).toEqual(["8 s", "aborted"]);
    freezeShopClock(false); // let run again from where it stood: no time passes by that
    await settled();
    expect(ended).toEqual(["8 s", "aborted"]);
    advanceShopClock(2_000);
    await settled();
    expect(ended).toEqual(["8 s", "aborted", "10 s"]);
    // Running, the clock also gets there on real time (here the fake timers' time).
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      void shopSleep(30, never).then(() => ended.push("30 ms"));
      vi.advanceTimersByTime(29);
      await settled();
      expect(ended).toHaveLength(3);
      vi.advanceTimersByTime(1);
      await settled();
      expect(ended.at(-1)).toBe("30 ms");
    } finally {
      vi.useRealTimers();
    }
  });
});
