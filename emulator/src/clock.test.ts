import { describe, expect, it, vi } from "vitest";
import { Clock } from "./clock";

describe("Clock", () => {
  it("runs with real time plus an offset that advance, set and reset move", () => {
    const clock = new Clock();
    expect(Math.abs(clock.now() - Date.now())).toBeLessThan(50);
    clock.advance(3_600_000);
    expect(clock.offset).toBe(3_600_000);
    const at = Date.parse("2030-01-01T00:00:00Z");
    clock.set(at);
    expect(Math.abs(clock.now() - at)).toBeLessThan(50);
    clock.reset();
    expect(clock.offset).toBe(0);
  });

  it("notifies subscribers with the new and the previous time, and survives a failing one", () => {
    const clock = new Clock();
    const seen: number[] = [];
    clock.onChange(() => {
      throw new Error("listener bug");
    });
    const off = clock.onChange((now, previous) => seen.push(now - previous));
    clock.advance(1000);
    off();
    clock.advance(1000);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeGreaterThanOrEqual(1000);
    expect(seen[0]).toBeLessThan(1050);
  });

  it("until: ends when the merchant's clock reaches the time, on real time or moved there, no sooner", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const clock = new Clock();
      const settled = () => new Promise((resolve) => setImmediate(resolve));
      const ended: string[] = [];
      void clock.until(clock.now() + 60_000, "m_a").then(() => ended.push("a, moved"));
      void clock.until(clock.now() + 60_000, "m_b").then(() => ended.push("b, real time"));
      // Another merchant's clock moving ends nothing of this one's.
      clock.advanceMerchant("m_b", 59_000);
      await settled();
      expect(ended).toEqual([]);
      clock.advanceMerchant("m_a", 60_000);
      await settled();
      expect(ended).toEqual(["a, moved"]);
      vi.advanceTimersByTime(999);
      await settled();
      expect(ended).toEqual(["a, moved"]);
      vi.advanceTimersByTime(1);
      await settled();
      expect(ended).toEqual(["a, moved", "b, real time"]);
      // Stopped, only a move ends it: the emulator clock moves every merchant's with it.
      clock.set(clock.now(), true);
      void clock.until(clock.now("m_a") + 5_000, "m_a").then(() => ended.push("stopped, moved"));
      vi.advanceTimersByTime(10_000);
      await settled();
      expect(ended).toHaveLength(2);
      clock.advance(5_000);
      await settled();
      expect(ended.at(-1)).toBe("stopped, moved");
    } finally {
      vi.useRealTimers();
    }
  });

  it("gives each merchant its own clock on top of the emulator clock", () => {
    const clock = new Clock();
    const at = Date.parse("2030-01-01T00:00:00Z");
    clock.set(at, true);
    clock.advanceMerchant("m_a", 60_000);
    expect(clock.now("m_a")).toBe(at + 60_000);
    expect(clock.now("m_b")).toBe(at);
    expect(clock.now()).toBe(at);
    // The emulator clock carries every merchant with it, a stopped one too.
    clock.setMerchant("m_b", at + 5_000, true);
    clock.advance(1_000);
    expect([clock.now("m_a"), clock.now("m_b"), clock.now()]).toEqual([
      at + 61_000,
      at + 6_000,
      at + 1_000,
    ]);
    expect(clock.merchantView("m_a")).toMatchObject({ merchant_offset_ms: 60_000 });
    const moved: (string | undefined)[] = [];
    clock.onChange((_now, _previous, merchant) => moved.push(merchant));
    clock.resetMerchant("m_a");
    expect(clock.now("m_a")).toBe(at + 1_000);
    clock.reset();
    expect(clock.merchantView("m_b")).toMatchObject({ merchant_offset_ms: 0, frozen: false });
    expect(moved).toEqual(["m_a", undefined]);
  });
});
