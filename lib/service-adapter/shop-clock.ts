import "server-only";
import { abortableSleep, processSingleton } from "@service-integration/kit/server";

/**
 * The time the shop's integration jobs read (the trade-in registration's retry schedule,
 * packages/kit/src/card-trade-in.ts) and the catalog snapshot's age (lib/shop/catalog.ts), and
 * the waits on it (shopSleep: the card checkout's wait for the trade-in step, each service call's
 * time limit). Real time, except in a build made for the browser suite:
 * `SHOP_TEST_CLOCK=1` when `next build` runs (`npm run build:test`, `npm test`), which
 * next.config.ts inlines into the bundle. There the suite moves the clock forward through
 * `POST /api/test/clock` instead of waiting for a Retry-After on real time. A production build
 * (`npm run build`, `npm run demo`) is made without it: the route answers 404 and the offset is
 * dead code, whatever the environment at run time.
 *
 * The offset lives in this process only: the test clock is a test build's, never state a
 * deployment shares (the browser suite runs one storefront per stack).
 */
export const TEST_CLOCK_BUILD = process.env.SHOP_TEST_CLOCK === "1";

const state = () =>
  processSingleton("shop-test-clock", () => ({
    ms: 0,
    frozenAt: null as number | null,
    /** The waits on the clock (shopSleep), each checked again whenever the clock moves. */
    waits: new Set<() => void>(),
  }));

/** Every wait on the clock looks at the time again (the clock moved or stopped). */
function wake(): void {
  for (const check of [...state().waits]) check();
}

export function shopNow(): Date {
  if (!TEST_CLOCK_BUILD) return new Date();
  const { ms, frozenAt } = state();
  return new Date((frozenAt ?? Date.now()) + ms);
}

/** Moves the test clock forward; throws in a build without it. */
export function advanceShopClock(ms: number): Date {
  if (!TEST_CLOCK_BUILD) throw new Error("this build has no test clock");
  state().ms += ms;
  wake();
  return shopNow();
}

/**
 * Stops the test clock where it stands (it then moves only when advanced), or lets it run again
 * from there: a journey that checks what holds for a while (the catalog snapshot's 5 s) must not
 * depend on how fast the machine runs it. Never goes back: thawed, the clock goes on from the
 * time it was stopped at. Throws in a build without it.
 */
export function freezeShopClock(frozen: boolean): Date {
  if (!TEST_CLOCK_BUILD) throw new Error("this build has no test clock");
  const clock = state();
  if (frozen && clock.frozenAt === null) clock.frozenAt = Date.now();
  if (!frozen && clock.frozenAt !== null) {
    clock.ms -= Date.now() - clock.frozenAt;
    clock.frozenAt = null;
  }
  wake();
  return shopNow();
}

/**
 * Waits `ms` on the shop's clock, ending early when `signal` aborts (the kit's `timeLimit` and
 * `sleep` shape). Real time in any build but the test build, where it also ends as soon as the
 * suite moves the clock past it: a journey against a service that never answers moves the clock
 * instead of waiting out the card checkout's 8 s and a call's 10 s.
 */
export function shopSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (!TEST_CLOCK_BUILD) return abortableSleep(ms, signal);
  const due = shopNow().getTime() + ms;
  const { waits } = state();
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      clearTimeout(timer);
      const left = due - shopNow().getTime();
      if (signal.aborted || left <= 0) {
        waits.delete(check);
        resolve();
        return;
      }
      // Running, the clock also gets there on real time; stopped, only a move wakes the wait.
      if (state().frozenAt === null) timer = setTimeout(check, left);
    };
    waits.add(check);
    signal.addEventListener("abort", check, { once: true });
    check();
  });
}
