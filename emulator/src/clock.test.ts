import { describe, expect, it } from "vitest";
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
});
