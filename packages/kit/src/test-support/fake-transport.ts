import type { TransportDeps } from "../http.js";

/**
 * Test doubles shared by this folder's unit tests: a scripted fetch and a fake clock whose
 * sleep advances time instantly. Not used by production code.
 */

/** One request the scripted fetch received, as the transport sent it. */
export interface RecordedCall {
  /** The full URL called. */
  url: string;
  /** The HTTP method (GET when none was given). */
  method: string;
  /** The request's headers, names lower-case. */
  headers: Record<string, string>;
  /** The request's body when it was text (JSON), else undefined. */
  body: string | undefined;
}

/** What the scripted fetch answers a call: a Response, a reply described by status and body, or
 *  a failure (`timeout`: hangs until the transport aborts; `network`: reset; `refused`). */
export type FakeReply =
  | Response
  | {
      /** The HTTP status. */
      status: number;
      /** A JSON body (serialised); ignored when `text` is given. */
      json?: unknown;
      /** A raw text body. */
      text?: string;
      /** Headers beside `content-type: application/json`. */
      headers?: Record<string, string>;
    }
  | "timeout"
  | "network"
  | "refused";

/** The script of the fake service: the reply to the `index`-th call (0-based). */
export type FakeHandler = (call: RecordedCall, index: number) => FakeReply | Promise<FakeReply>;

/** A reply of `status` with a JSON body (and headers, when given). */
export function reply(status: number, json?: unknown, headers?: Record<string, string>): FakeReply {
  return headers ? { status, json, headers } : { status, json };
}

/** The transport's deps over a scripted fetch (`handler`) and a fake clock whose sleep advances
 *  it at once; `randomValue` is what `random()` answers (default 0.5, no jitter skew). */
export function createFakeDeps(handler: FakeHandler, options: { randomValue?: number } = {}) {
  const calls: RecordedCall[] = [];
  const sleeps: number[] = [];
  const clock = {
    /** Epoch milliseconds; starts at 2026-01-01T12:00:00Z. */
    now: Date.UTC(2026, 0, 1, 12, 0, 0),
  };
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const call: RecordedCall = {
      url: String(input),
      method: init?.method ?? "GET",
      headers,
      body: typeof init?.body === "string" ? init.body : undefined,
    };
    calls.push(call);
    const result = await handler(call, calls.length - 1);
    if (result === "timeout") {
      // Hang until the transport's own timer aborts, as a real slow server would.
      return new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(new Error("aborted")));
      });
    }
    if (result === "network")
      throw new TypeError("fetch failed", { cause: { code: "ECONNRESET" } });
    if (result === "refused") {
      throw new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
    }
    if (result instanceof Response) return result;
    const body = result.text ?? (result.json === undefined ? "" : JSON.stringify(result.json));
    return new Response(result.status === 204 ? null : body, {
      status: result.status,
      headers: { "content-type": "application/json", ...result.headers },
    });
  };
  const deps: TransportDeps = {
    fetch: fetchImpl as typeof fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.now += ms;
    },
    random: () => options.randomValue ?? 0.5,
    now: () => clock.now,
  };
  return {
    /** The transport's deps: the scripted fetch, the instant sleep, the fake clock. */
    deps,
    /** Every call the fetch received, in order. */
    calls,
    /** Every sleep asked for, in milliseconds, in order. */
    sleeps,
    /** The fake clock: `now` in epoch milliseconds, advanced by each sleep. */
    clock,
  };
}
