import "server-only";
import { processSingleton } from "@service-integration/kit/server";

/**
 * The time the shop's integration jobs read (the trade-in registration's retry schedule,
 * packages/kit/src/card-trade-in.ts) and the catalog snapshot's age (lib/shop/catalog.ts). Real time, except in a build made for the browser suite:
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
  processSingleton("shop-test-clock", () => ({ ms: 0, frozenAt: null as number | null }));

export function shopNow(): Date {
  if (!TEST_CLOCK_BUILD) return new Date();
  const { ms, frozenAt } = state();
  return new Date((frozenAt ?? Date.now()) + ms);
}

/** Moves the test clock forward; throws in a build without it. */
export function advanceShopClock(ms: number): Date {
  if (!TEST_CLOCK_BUILD) throw new Error("this build has no test clock");
  state().ms += ms;
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
  return shopNow();
}
