import "server-only";
import { after } from "next/server.js";
import { abortableSleep } from "./http.js";

/**
 * Work a request started and its response must not wait for, handed to the host so that it
 * finishes before the host may freeze or stop the function: the order webhook's apply of what it
 * stored (contract: Events › Webhook, Merchant endpoints rule 2: 200 once stored, applied after)
 * and the rest of the card checkout's trade-in step (register-purchase) once the shopper stopped
 * waiting. A resident server (`next start`) keeps such work running anyway; a serverless host
 * freezes the function after the response unless it was told to wait (Vercel's and Netlify's
 * `waitUntil`, Cloudflare's `ctx.waitUntil`, Next's `after()`).
 *
 * Injected rather than called directly, so the kit's functions work without Next (a host on
 * another framework passes its platform's waitUntil; a test records what was handed over).
 */
export type WaitUntil = (work: Promise<unknown>) => void;

/**
 * The default WaitUntil: Next's `after(work)`, which keeps the function alive until `work`
 * settles, after the response was sent. Outside a Next request (`after` throws there: a script,
 * a test calling a route handler directly, a host on another framework that passed nothing) the
 * work is already running and this process keeps it, as a resident server does.
 */
export const afterResponse: WaitUntil = (work) => {
  try {
    after(work);
  } catch {
    // Not in a request scope: nothing to register with; the promise runs on in this process.
  }
};

/** How long waitAtMost waits and where the rest goes. */
export interface WaitAtMostOptions {
  /** How long the caller waits for `work` (milliseconds). */
  waitMs: number;
  /** Where the rest goes when the wait ends first (default: afterResponse). */
  waitUntil?: WaitUntil;
  /** The wait itself; it ends early when `signal` aborts (default: a cleared setTimeout). Tests
   *  pass one they resolve by hand, so nothing sleeps on real time. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * Waits for `work` at most `waitMs`: its result when it settled in time, else `undefined` and
 * `work` is handed to `waitUntil`, so it finishes after the response. `work` must not reject
 * (catch and log inside it): a rejection in the background has no one to answer.
 */
export async function waitAtMost<T>(
  work: Promise<T>,
  options: WaitAtMostOptions,
): Promise<
  | {
      /** `work` settled in time. */
      done: true;
      /** Its result. */
      value: T;
    }
  | {
      /** The wait ended first: `work` went to waitUntil. */
      done: false;
    }
> {
  const sleep = options.sleep ?? abortableSleep;
  const stop = new AbortController();
  const finished = work.then((value) => ({ done: true as const, value }));
  const waited = sleep(options.waitMs, stop.signal).then(() => ({ done: false as const }));
  const first = await Promise.race([finished, waited]);
  stop.abort();
  // Called here, in the caller's async context: Next's after() finds its request by it.
  if (!first.done) (options.waitUntil ?? afterResponse)(work);
  return first;
}
