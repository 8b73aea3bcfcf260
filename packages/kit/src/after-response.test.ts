import { describe, expect, it } from "vitest";
import { afterResponse, waitAtMost } from "./after-response.js";

// Work a response must not wait for, handed to the host (Next's after(), a platform's
// waitUntil) so it finishes before a serverless function is frozen. The wait is a sleep the
// test ends by hand: nothing here sleeps on real time.

/** A sleep that ends when the test says so, and says whether it was cut short. */
function manualSleep() {
  let end = () => {};
  const state = { started: 0, aborted: false };
  const sleep = (ms: number, signal: AbortSignal) => {
    state.started = ms;
    signal.addEventListener("abort", () => {
      state.aborted = true;
    });
    return new Promise<void>((resolve) => {
      end = resolve;
    });
  };
  return { sleep, state, end: () => end() };
}

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("waitAtMost", () => {
  it("returns work that finished within the wait and hands nothing over", async () => {
    const clock = manualSleep();
    const handed: Promise<unknown>[] = [];
    const result = await waitAtMost(Promise.resolve("registered"), {
      waitMs: 8_000,
      sleep: clock.sleep,
      waitUntil: (work) => handed.push(work),
    });
    expect(result).toEqual({ done: true, value: "registered" });
    expect(handed).toEqual([]);
    // The wait was for 8 s and is cut short, so no timer outlives the step.
    expect(clock.state).toEqual({ started: 8_000, aborted: true });
  });

  it("hands slower work over when the wait ends, and that work still finishes", async () => {
    const clock = manualSleep();
    const slow = deferred<string>();
    const handed: Promise<unknown>[] = [];
    const waiting = waitAtMost(slow.promise, {
      waitMs: 8_000,
      sleep: clock.sleep,
      waitUntil: (work) => handed.push(work),
    });
    clock.end();
    expect(await waiting).toEqual({ done: false });
    expect(handed).toHaveLength(1);
    slow.resolve("registered");
    expect(await handed[0]).toBe("registered");
  });
});

describe("afterResponse", () => {
  it("outside a Next request leaves the work running in this process instead of throwing", async () => {
    const work = deferred<string>();
    expect(() => afterResponse(work.promise)).not.toThrow();
    work.resolve("applied");
    expect(await work.promise).toBe("applied");
  });
});
