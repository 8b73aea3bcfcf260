import "server-only";
import { ServiceNetworkError, ServiceTimeoutError } from "./errors.js";

/**
 * The transport under every service API call: timeouts, and the retry rules of the contract's
 * Errors section ("on 429 use exponential backoff (1 s, 2 s, 4 s, ...); on 503 retry after a
 * delay"). It returns the final HTTP answer whatever its status; turning a non-2xx answer into a
 * ServiceApiError is the client's job, because the token manager must see a 401 first.
 *
 * Everything that touches the outside world (fetch, sleep, random, the clock) is injected so the
 * tests are instant and deterministic.
 */

/** What the transport touches of the outside world (injected: tests pass fakes). */
export interface TransportDeps {
  /** The fetch the calls go through. */
  fetch: typeof fetch;
  /** Waits `ms` milliseconds (between retries). */
  sleep: (ms: number) => Promise<void>;
  /** A number in [0, 1), like Math.random. */
  random: () => number;
  /** Milliseconds since the epoch, like Date.now. */
  now: () => number;
  /** Waits out one attempt's time limit, ending early when `signal` aborts (the attempt is
   *  done); default abortableSleep, real time. A host whose tests move its own clock passes a
   *  wait on that clock, so a test of a service that never answers waits for no real time. */
  timeLimit?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** setTimeout as a sleep that an abort clears, so a finished step leaves no timer behind. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The real ones: global fetch, setTimeout, Math.random, Date.now. */
export const realTransportDeps: TransportDeps = {
  fetch: (input, init) => globalThis.fetch(input, init),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
  now: Date.now,
};

/** Timeouts and retries of the service calls (contract: Errors › Client guidance). */
export interface RetryPolicy {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  /** First backoff delay; doubled for each further retry (contract: 1 s, 2 s, 4 s, ...). */
  baseDelayMs: number;
  /** Cap on a computed backoff delay. */
  maxDelayMs: number;
  /** A delay is spread uniformly over ±jitterRatio of itself so instances do not retry in step. */
  jitterRatio: number;
  /** A Retry-After longer than this is not waited for: the answer is returned so the caller can
   *  queue the work instead of holding a shopper's request open. */
  maxRetryAfterMs: number;
  /** Per-attempt limit, covering the headers and the body. */
  timeoutMs: number;
}

/** 4 attempts, backoff 1 s doubling to at most 8 s with ±20% jitter, a Retry-After waited up
 *  to 10 s, 10 s per attempt. */
export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 1_000,
  maxDelayMs: 8_000,
  jitterRatio: 0.2,
  maxRetryAfterMs: 10_000,
  timeoutMs: 10_000,
};

/** One service API call as the transport sends it. */
export interface HttpRequest {
  /** The HTTP method. */
  method: "GET" | "POST";
  /** Path exactly as the contract writes it, trailing slash or not (contract: Endpoints). */
  path: string;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | undefined>;
  /** Request headers (the bearer token is added by the token manager). */
  headers?: Record<string, string>;
  /** The request body (JSON text). */
  body?: string;
  /**
   * Whether sending the request twice is harmless when the first outcome is unknown (a timeout
   * or a dropped connection). Defaults to true for GET and false for POST: a POST that timed out
   * may already have been applied, so repeating it could, for example, register a purchase twice.
   * A 429 or 503 is always retried: the service refused the request, so nothing was applied.
   */
  safeToRepeat?: boolean;
  /** Which protocol step this is (e.g. the token grant), for the integration inspector. */
  step?: string;
  /** Fewer attempts than the policy's, for a call a shopper waits on (at most the policy's). */
  maxAttempts?: number;
  /** A shorter per-attempt limit than the policy's, likewise. */
  timeoutMs?: number;
}

/** The final HTTP answer, whatever its status. */
export interface HttpResponse {
  /** The HTTP status. */
  status: number;
  /** The answer's headers. */
  headers: Headers;
  /** The answer's body as text. */
  text: string;
  /** How many attempts were made, for logs and the integration inspector. */
  attempts: number;
}

/** One event per attempt, so the integration inspector can show the protocol as it happens. */
export type HttpObserver = (event: {
  method: string;
  path: string;
  attempt: number;
  durationMs: number;
  status?: number;
  failure?: "timeout" | "network";
  retryInMs?: number;
  step?: string;
}) => void;

// Node's fetch reports these when no connection was made, so the request was never sent and a
// repeat is safe even for a POST.
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/** Sends service API calls with the policy's timeouts and retries; answers the final response. */
export class HttpTransport {
  constructor(
    private readonly baseUrl: string,
    private readonly deps: TransportDeps = realTransportDeps,
    private readonly policy: RetryPolicy = defaultRetryPolicy,
    private readonly observer?: HttpObserver,
  ) {}

  /** Sends `request`, retrying a 429, a 503 and (when safe to repeat) a timeout or a dropped
   *  connection by the policy; throws ServiceTimeoutError or ServiceNetworkError at the end. */
  async send(request: HttpRequest): Promise<HttpResponse> {
    const safeToRepeat = request.safeToRepeat ?? request.method === "GET";
    const url = buildUrl(this.baseUrl, request.path, request.query);
    for (let attempt = 1; ; attempt++) {
      const started = this.deps.now();
      const isLast = attempt >= Math.min(request.maxAttempts ?? Infinity, this.policy.maxAttempts);
      let outcome: Awaited<ReturnType<HttpTransport["attempt"]>>;
      try {
        outcome = await this.attempt(url, request);
      } catch (error) {
        const failure = error instanceof ServiceTimeoutError ? "timeout" : "network";
        const repeatable = safeToRepeat || (failure === "network" && wasNotSent(error));
        const retryInMs =
          repeatable && !isLast
            ? backoffDelay(attempt - 1, this.policy, this.deps.random)
            : undefined;
        this.observe(request, attempt, started, { failure, retryInMs });
        if (retryInMs === undefined) throw error;
        await this.deps.sleep(retryInMs);
        continue;
      }
      const retryInMs = isLast ? undefined : this.retryDelay(outcome, attempt);
      this.observe(request, attempt, started, { status: outcome.status, retryInMs });
      if (retryInMs === undefined) return { ...outcome, attempts: attempt };
      await this.deps.sleep(retryInMs);
    }
  }

  private async attempt(url: string, request: HttpRequest) {
    const timeoutMs = Math.min(request.timeoutMs ?? Infinity, this.policy.timeoutMs);
    const controller = new AbortController();
    const done = new AbortController();
    void (this.deps.timeLimit ?? abortableSleep)(timeoutMs, done.signal).then(() => {
      if (!done.signal.aborted) controller.abort();
    });
    try {
      const init: RequestInit = { method: request.method, signal: controller.signal };
      if (request.headers) init.headers = request.headers;
      if (request.body !== undefined) init.body = request.body;
      const response = await this.deps.fetch(url, init);
      const text = await response.text();
      return { status: response.status, headers: response.headers, text };
    } catch (error) {
      if (controller.signal.aborted) {
        throw new ServiceTimeoutError(request.method, request.path, timeoutMs);
      }
      throw new ServiceNetworkError(request.method, request.path, { cause: error });
    } finally {
      done.abort();
    }
  }

  /** The wait before the next attempt, or undefined when this answer is final. */
  private retryDelay(response: { status: number; headers: Headers }, attempt: number) {
    if (response.status !== 429 && response.status !== 503) return undefined;
    const retryAfter = parseRetryAfter(response.headers.get("retry-after"), this.deps.now());
    if (retryAfter !== undefined && retryAfter > this.policy.maxRetryAfterMs) return undefined;
    const backoff = backoffDelay(attempt - 1, this.policy, this.deps.random);
    // 429: exponential backoff, never sooner than the server asked (contract: Errors).
    if (response.status === 429) return Math.max(retryAfter ?? 0, backoff);
    // 503: "retry after a delay": the server's delay when given, else the same backoff.
    return retryAfter ?? backoff;
  }

  private observe(
    request: HttpRequest,
    attempt: number,
    started: number,
    rest: { status?: number; failure?: "timeout" | "network"; retryInMs?: number | undefined },
  ) {
    if (!this.observer) return;
    const event: Parameters<HttpObserver>[0] = {
      method: request.method,
      path: request.path,
      attempt,
      durationMs: this.deps.now() - started,
    };
    if (rest.status !== undefined) event.status = rest.status;
    if (rest.failure !== undefined) event.failure = rest.failure;
    if (rest.retryInMs !== undefined) event.retryInMs = rest.retryInMs;
    if (request.step !== undefined) event.step = request.step;
    this.observer(event);
  }
}

/** Exponential delay for the n-th retry (0-based): base·2ⁿ, capped, then jittered ±ratio. */
export function backoffDelay(
  retryIndex: number,
  policy: RetryPolicy,
  random: () => number,
): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  const jitter = exponential * policy.jitterRatio * (random() * 2 - 1);
  return Math.max(0, Math.round(exponential + jitter));
}

/**
 * `Retry-After` is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). Returns
 * milliseconds to wait, or undefined when absent or unreadable (then backoff applies).
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Only a real date: Date.parse also accepts bare numbers like "1.5", which are not allowed.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** `baseUrl` + `path` (as the contract writes it) + the defined query parameters. */
export function buildUrl(
  baseUrl: string,
  path: string,
  query?: Record<string, string | number | undefined>,
): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(key, String(value));
  }
  const qs = search.toString();
  return `${baseUrl}${path}${qs ? `?${qs}` : ""}`;
}

function wasNotSent(error: unknown): boolean {
  let cause: unknown = (error as { cause?: unknown }).cause;
  for (let depth = 0; depth < 3 && cause; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && NOT_SENT_CODES.has(code)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}
