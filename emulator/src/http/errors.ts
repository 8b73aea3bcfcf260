import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import type { EmulatorEnv } from "../context";

// Error bodies follow the contract (Errors): `{ error, error_description }`, the HTTP status
// only in the response status.

/** Default `error` code per status; the contract's codes where it names one. */
export const ERROR_CODES: Record<number, string> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  410: "gone",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "unprocessable_entity",
  429: "rate_limit_exceeded",
  500: "internal_server_error",
  502: "bad_gateway",
  503: "service_unavailable",
  504: "gateway_timeout",
};

export interface ErrorBody {
  error: string;
  error_description: string;
}

export function errorBody(error: string, description: string): ErrorBody {
  return { error, error_description: description };
}

/** A JSON answer that the journal also records (without re-reading the response). */
export function reply(
  c: Context<EmulatorEnv>,
  body: unknown,
  status = 200,
  headers?: Record<string, string>,
): Response {
  c.set("journalBody", body);
  return c.json(body as object, status as 200, headers);
}

export function fail(
  c: Context<EmulatorEnv>,
  status: number,
  error: string,
  description: string,
  headers?: Record<string, string>,
): Response {
  return reply(c, errorBody(error, description), status, headers);
}

/** 500 with a correlation id in the description and in `X-Correlation-Id`. */
export function internalError(
  c: Context<EmulatorEnv>,
  description = "Internal error",
  id: string = randomUUID(),
): Response {
  return fail(
    c,
    500,
    "internal_server_error",
    `${description}. Quote correlation id ${id} to support.`,
    { "X-Correlation-Id": id },
  );
}

export function tooManyRequests(
  c: Context<EmulatorEnv>,
  limit: number,
  retryAfterSeconds: number,
): Response {
  return fail(
    c,
    429,
    "rate_limit_exceeded",
    `Rate limit of ${limit} requests per minute exceeded; retry after ${retryAfterSeconds} s.`,
    { "Retry-After": String(retryAfterSeconds) },
  );
}

export function serviceUnavailable(c: Context<EmulatorEnv>, retryAfterSeconds = 30): Response {
  return fail(
    c,
    503,
    "service_unavailable",
    "The service is under maintenance; retry after a delay.",
    { "Retry-After": String(retryAfterSeconds) },
  );
}
