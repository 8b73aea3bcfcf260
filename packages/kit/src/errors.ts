/**
 * Typed failures of the service API.
 * Why: the contract's Errors section defines the body `{ error, error_description }`, with the
 * status carried by the HTTP response, and says a 500's description includes a correlation id to
 * quote to support. Callers branch on `status` and `error`, never on message text.
 */

/**
 * `instanceof` that also works across copies of this module. Next bundles instrumentation.ts,
 * route handlers and server actions separately, so one process can hold two copies of the kit
 * while they share one client (packages/kit/src/service.ts keeps it on globalThis); an error thrown by
 * one copy's client must still be recognised by the other copy's handlers, or a 503 escapes as an
 * unknown error. Each class names its kind under a registry symbol both copies share, and each
 * error carries the kinds of its class chain.
 */
export const SERVICE_ERROR_KIND: unique symbol = Symbol.for("tradein-shop.service-error.kind");
const KINDS: unique symbol = Symbol.for("tradein-shop.service-error.kinds");

type Kinded = { [SERVICE_ERROR_KIND]?: string };

/** Base class, so a route can catch every service failure with one `instanceof`. Its `name` is
 *  its class's kind, so a subclass names its kind once. */
export class ServiceError extends Error {
  /** The class's kind, as errors of another copy of this module recognise it. */
  static readonly [SERVICE_ERROR_KIND]: string = "ServiceError";
  /** The error's class kind, e.g. "ServiceApiError". */
  override name: string;
  /** @internal The kinds of the error's class chain (instanceof across module copies). */
  readonly [KINDS]: readonly string[];

  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    const kinds: string[] = [];
    for (let c: unknown = new.target; typeof c === "function"; c = Object.getPrototypeOf(c)) {
      if (Object.hasOwn(c, SERVICE_ERROR_KIND))
        kinds.push(String((c as Kinded)[SERVICE_ERROR_KIND]));
    }
    this[KINDS] = kinds;
    this.name = kinds[0] ?? "ServiceError";
  }

  /** `instanceof` by prototype, or by the kinds an error of another module copy carries. */
  static [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class asked about (a subclass)
    return isOfKind(this, value);
  }
}

/** By prototype first; else by the kinds an error of another module copy carries. */
function isOfKind(target: unknown, value: unknown): boolean {
  if (typeof target !== "function") return false;
  if (Function.prototype[Symbol.hasInstance].call(target, value)) return true;
  if (!Object.hasOwn(target, SERVICE_ERROR_KIND)) return false;
  const kinds = (value as { [KINDS]?: unknown } | null | undefined)?.[KINDS];
  return Array.isArray(kinds) && kinds.includes((target as Kinded)[SERVICE_ERROR_KIND]);
}

/** What ServiceApiError is made of: the request and the service's error answer. */
export interface ServiceApiErrorInit {
  /** The HTTP status answered. */
  status: number;
  /** The request's HTTP method. */
  method: string;
  /** The request's path under the service's base URL. */
  path: string;
  /** The body's `error` code (contract: Errors), when it carried one. */
  error?: string | undefined;
  /** The body's `error_description`, when it carried one. */
  errorDescription?: string | undefined;
  /** Retry-After of a 429/503, in ms, when the answer carried one. */
  retryAfterMs?: number | undefined;
}

/** The service answered with a non-2xx status. */
export class ServiceApiError extends ServiceError {
  /** The class's kind, "ServiceApiError": how another copy of this module recognises it. */
  static override readonly [SERVICE_ERROR_KIND] = "ServiceApiError";
  /** The HTTP status answered (contract: Errors › Status codes). */
  readonly status: number;
  /** The request's HTTP method. */
  readonly method: string;
  /** The request's path under the service's base URL. */
  readonly path: string;
  /** Machine-readable code (`error`); "unknown" when the body did not carry one. */
  readonly error: string;
  /** Human-readable text (`error_description`); may be empty. */
  readonly errorDescription: string;
  /** Present on 500s whose description carries one (contract: Errors). */
  readonly correlationId: string | undefined;
  /** How long the service asked us to wait before the same request (a 429/503's Retry-After). */
  readonly retryAfterMs: number | undefined;

  constructor(init: ServiceApiErrorInit) {
    const code = init.error ?? "unknown";
    const description = init.errorDescription ?? "";
    super(
      `${init.method} ${init.path} answered ${init.status} ${code}${description ? `: ${description}` : ""}`,
    );
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.error = code;
    this.errorDescription = description;
    this.correlationId = init.status >= 500 ? extractCorrelationId(description) : undefined;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** No answer within the per-request timeout. The request may or may not have been processed. */
export class ServiceTimeoutError extends ServiceError {
  /** The class's kind, "ServiceTimeoutError": how another copy of this module recognises it. */
  static override readonly [SERVICE_ERROR_KIND] = "ServiceTimeoutError";
  constructor(
    /** The request's HTTP method. */
    readonly method: string,
    /** The request's path under the service's base URL. */
    readonly path: string,
    /** The per-request timeout that passed, in milliseconds. */
    readonly timeoutMs: number,
  ) {
    super(`${method} ${path} timed out after ${timeoutMs} ms`);
  }
}

/** The request failed below HTTP (DNS, refused connection, reset). */
export class ServiceNetworkError extends ServiceError {
  /** The class's kind, "ServiceNetworkError": how another copy of this module recognises it. */
  static override readonly [SERVICE_ERROR_KIND] = "ServiceNetworkError";
  constructor(
    /** The request's HTTP method. */
    readonly method: string,
    /** The request's path under the service's base URL. */
    readonly path: string,
    options: { cause: unknown },
  ) {
    super(`${method} ${path} failed: ${describeCause(options.cause)}`, options);
  }
}

/** A 2xx answer whose body does not have the shape the contract describes. */
export class ServiceResponseError extends ServiceError {
  /** The class's kind, "ServiceResponseError": how another copy of this module recognises it. */
  static override readonly [SERVICE_ERROR_KIND] = "ServiceResponseError";
  constructor(
    /** The request's HTTP method. */
    readonly method: string,
    /** The request's path under the service's base URL. */
    readonly path: string,
    /** What was wrong with the body, in words (zod's issues). */
    readonly detail: string,
  ) {
    super(`${method} ${path} answered an unexpected body: ${detail}`);
  }
}

/**
 * Reads `{ error, error_description }` defensively: the body may be empty, HTML from a proxy, or
 * JSON of another shape. Non-string fields are ignored rather than trusted.
 */
export function parseErrorBody(text: string): {
  /** The body's `error` code, when it was a string. */
  error?: string;
  /** The body's `error_description`, when it was a string. */
  errorDescription?: string;
} {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const record = value as Record<string, unknown>;
  const result: { error?: string; errorDescription?: string } = {};
  if (typeof record.error === "string") result.error = record.error;
  if (typeof record.error_description === "string") {
    result.errorDescription = record.error_description;
  }
  return result;
}

/**
 * The contract says only that the 500 description "includes a correlation id"; its wording is
 * not shown, so this accepts "correlation id: X", "correlation_id=X", "Correlation-ID X" and a
 * JSON-ish `"correlation_id": "X"`. X is the first run of letters, digits, `-`, `_`, `.`, `:`.
 */
export function extractCorrelationId(description: string): string | undefined {
  const match = /correlation[\s_-]*id\b["']?\s*[:=#]?\s*["']?([A-Za-z0-9][A-Za-z0-9._:-]*)/i.exec(
    description,
  );
  return match?.[1]?.replace(/[.:]+$/, "");
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code ?? (cause.cause as { code?: unknown })?.code;
    return typeof code === "string" ? `${cause.message} (${code})` : cause.message;
  }
  return String(cause);
}

/** Our own input broke a contract rule, caught before anything was sent (e.g. a decimal amount,
 *  an update_type outside the contract's list). A programming or data error, never retried. */
export class ServiceInputError extends ServiceError {
  /** The class's kind, "ServiceInputError": how another copy of this module recognises it. */
  static override readonly [SERVICE_ERROR_KIND] = "ServiceInputError";
  constructor(
    /** What was being built or sent, e.g. "register-purchase". */
    readonly operation: string,
    /** Which rule the input broke, in words. */
    readonly detail: string,
  ) {
    super(`${operation}: ${detail}`);
  }
}
