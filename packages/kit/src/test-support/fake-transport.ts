import type { TransportDeps } from "../http.js";

/**
 * Test doubles shared by this folder's unit tests: a scripted fetch and a fake clock whose
 * sleep advances time instantly. Not used by production code.
 */

export interface RecordedCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export type FakeReply =
  | Response
  | { status: number; json?: unknown; text?: string; headers?: Record<string, string> }
  | "timeout"
  | "network"
  | "refused";

export type FakeHandler = (call: RecordedCall, index: number) => FakeReply | Promise<FakeReply>;

export function reply(status: number, json?: unknown, headers?: Record<string, string>): FakeReply {
  return headers ? { status, json, headers } : { status, json };
}

export function createFakeDeps(handler: FakeHandler, options: { randomValue?: number } = {}) {
  const calls: RecordedCall[] = [];
  const sleeps: number[] = [];
  const clock = { now: Date.UTC(2026, 0, 1, 12, 0, 0) };
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
  return { deps, calls, sleeps, clock };
}
