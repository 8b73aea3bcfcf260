// The storefront's test clock (lib/service-adapter/shop-clock.ts): in a build made for the
// suite (`npm run build:test`; npm test makes one) a journey moves the shop's time forward and
// the trade-in retry job runs at once at the new time, instead of waiting for a Retry-After on
// real time. The emulator has a clock of its own (`emulator.advanceClock`): a journey moves both.
import { STACK } from "./stack";

export interface RetryJobRun {
  due: number;
  registered: number;
  notApplied: number;
  noTradeIn: number;
  stillQueued: number;
}

/** Moves the shop's clock forward by `seconds`; `freeze` first stops it where it stands (true)
 *  or lets it run again from there (false). The stack is the worker's own, so a clock stopped
 *  by one journey is let run again in its `finally`. */
export async function advanceShopClock(
  seconds: number,
  { freeze }: { freeze?: boolean } = {},
): Promise<RetryJobRun> {
  const response = await fetch(`${STACK.shopUrl}/api/test/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ advance_seconds: seconds, freeze }),
  });
  if (response.status === 404) {
    throw new Error("this storefront build has no test clock: build it with npm run build:test");
  }
  if (!response.ok) throw new Error(`the shop's test clock answered ${response.status}`);
  return ((await response.json()) as { retry_job: RetryJobRun }).retry_job;
}
