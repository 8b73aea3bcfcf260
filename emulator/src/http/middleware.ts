import type { Context, MiddlewareHandler } from "hono";
import type { EmulatorConfig, EmulatorContext, EmulatorEnv } from "../context";
import type { Scope } from "../domain";
import type { FaultRule } from "../faults";
import { pickHeaders } from "../journal";
import { mediaType } from "./body";
import { ERROR_CODES, fail, internalError, serviceUnavailable, tooManyRequests } from "./errors";

export const CONTROL_PREFIX = "/__emulator";

function isControl(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
}

/**
 * The control API, the journal and everything else under /__emulator/ answer only this machine's
 * own tools: a request carrying a foreign `Origin` (or a browser's cross-site fetch metadata)
 * gets 403, and so does any request with a body that is not `application/json`, which a web page
 * on another origin cannot send without a CORS preflight; that preflight is refused (403, no
 * CORS headers). A `Host` that is not one of `controlHosts` (a foreign name pointed at this
 * machine: DNS rebinding, where the page and the emulator look same-origin) gets 403 too. So no
 * page the operator happens to visit can reset the emulator, inject faults, move its clock or
 * read the journal.
 */
export function controlGuard(
  config: Pick<EmulatorConfig, "controlHosts">,
): MiddlewareHandler<EmulatorEnv> {
  return async (c, next) => {
    if (!isControl(c.req.path)) return next();
    const url = new URL(c.req.url);
    const name = hostName(c.req.header("host") ?? url.host);
    if (!config.controlHosts.some((allowed) => allowed.toLowerCase() === name)) {
      return fail(
        c,
        403,
        "forbidden",
        `The emulator's control API answers ${config.controlHosts.join(", ")} only, not the host name ${name || "(none)"}` +
          " (start it with --control-host NAME to add one).",
      );
    }
    const own = url.origin;
    const origin = c.req.header("origin");
    const site = c.req.header("sec-fetch-site");
    if ((origin !== undefined && origin !== own) || site === "cross-site" || site === "same-site") {
      return fail(
        c,
        403,
        "forbidden",
        `The emulator's control API answers its own origin only (${own}), not ${origin ?? site}.`,
      );
    }
    if (c.req.method === "OPTIONS") {
      return fail(c, 403, "forbidden", "The emulator's control API answers no CORS preflight.");
    }
    const method = c.req.method;
    if (method !== "GET" && method !== "HEAD") {
      if (mediaType(c) !== "application/json") {
        return fail(
          c,
          403,
          "forbidden",
          "The emulator's control API takes Content-Type: application/json only.",
        );
      }
    }
    return next();
  };
}

/** The host name of a `Host` header, lower case, without the port ("[::1]:4010" → "[::1]"). */
function hostName(host: string): string {
  const value = host.trim().toLowerCase();
  const port = /:\d*$/.exec(value);
  return port && !value.endsWith("]") ? value.slice(0, port.index) : value;
}

/**
 * Records every request but the control API's own (the inspector polls it) in the journal.
 * Only references are stored here; redaction happens when the journal is read.
 */
export function journalRequests(ctx: EmulatorContext): MiddlewareHandler<EmulatorEnv> {
  return async (c, next) => {
    const path = c.req.path;
    if (isControl(path)) return next();
    const started = performance.now();
    const method = c.req.method;
    let requestBody: string | undefined;
    if (method !== "GET" && method !== "HEAD") {
      // Read a clone so a route can still read the body any way it likes, even off c.req.raw.
      requestBody = await c.req.raw
        .clone()
        .text()
        .catch(() => undefined);
    }
    const addressed = requestMerchant(
      ctx,
      c.req.raw.headers,
      c.req.query("merchant_id"),
      requestBody,
    );
    if (addressed !== undefined) c.set("merchantId", addressed);
    const at = ctx.clock.now(addressed);
    const run = ctx.runOf(addressed);
    await next();
    // Answered after a reset, of the emulator or of the request's merchant (it waited on an
    // injected latency): it belongs to the run the reset archived, not to the next one's journal.
    if (ctx.runOf(addressed) !== run) return;
    const merchantId = c.get("auth")?.merchant_id ?? addressed;
    const url = c.req.url;
    const q = url.indexOf("?");
    const entry = ctx.journal.record({
      kind: "request",
      at,
      method,
      path,
      ...(q === -1 ? {} : { query: url.slice(q + 1) }),
      status: c.res.status,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
      request_headers: pickHeaders(c.req.raw.headers),
      ...retryAfterOf(c.res.headers),
      request_body: requestBody,
      response_body: c.get("journalBody"),
      client_id: c.get("clientId") ?? c.get("auth")?.client_id,
      ...(merchantId !== undefined ? { merchant_id: merchantId } : {}),
      ...(c.get("journalMeta") ? { meta: c.get("journalMeta") } : {}),
    });
    if (ctx.config.log) {
      console.log(`${method} ${path} → ${c.res.status} (${entry.duration_ms} ms)`);
    }
    // Routes that answered without reply() (other modules): read JSON answers off a clone.
    if (entry.response_body === undefined && c.res.headers.get("content-type")?.includes("json")) {
      c.res
        .clone()
        .text()
        .then((text) => {
          entry.response_body = text;
        })
        .catch(() => undefined);
    }
  };
}

const MAX_SNIFFED_BODY = 64 * 1024;

/**
 * The merchant a request is authenticated as or addressed to, read before any route runs (so
 * merchant-scoped faults and resets can go by it): a bearer token's merchant (expired or not),
 * a Basic-authenticated OAuth client's merchant (secret not checked: this only attributes), or
 * the `merchant_id` of the SDK routes' query or JSON body. Undefined when none says.
 */
export function requestMerchant(
  ctx: EmulatorContext,
  headers: Headers,
  queryMerchant: string | undefined,
  body: string | undefined,
): string | undefined {
  const header = headers.get("authorization") ?? "";
  const bearer = BEARER.exec(header)?.[1];
  if (bearer) return ctx.state.accessTokens.get(bearer)?.merchant_id;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    let id: string | undefined;
    try {
      id = decodeURIComponent(
        (colon === -1 ? decoded : decoded.slice(0, colon)).replace(/\+/g, " "),
      );
    } catch {
      id = undefined;
    }
    return id === undefined ? undefined : ctx.state.getClient(id)?.merchant_id;
  }
  const known = (id: unknown) =>
    typeof id === "string" && ctx.state.getMerchant(id) ? id : undefined;
  if (queryMerchant !== undefined) return known(queryMerchant);
  if (body && body.length <= MAX_SNIFFED_BODY && body.trimStart().startsWith("{")) {
    try {
      return known((JSON.parse(body) as { merchant_id?: unknown }).merchant_id);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function retryAfterOf(headers: Headers): { response_headers?: Record<string, string> } {
  const value = headers.get("retry-after");
  return value === null ? {} : { response_headers: { "retry-after": value } };
}

/** Maintenance switch (503) and injected faults, for every route but the control API. */
export function serviceGuards(ctx: EmulatorContext): MiddlewareHandler<EmulatorEnv> {
  return async (c, next) => {
    const path = c.req.path;
    if (isControl(path)) return next();
    if (ctx.config.maintenance) return serviceUnavailable(c, ctx.config.maintenanceRetryAfter);
    const merchant = c.get("merchantId");
    const rule = ctx.faults.match(c.req.method, path, merchant);
    if (!rule) return next();
    c.header("X-Emulator-Fault", rule.id);
    if (rule.latency_ms > 0) {
      const run = ctx.runOf(merchant);
      // On the merchant's clock: moving it (the control API) releases the request early.
      await ctx.clock.until(ctx.clock.now(merchant) + rule.latency_ms, merchant);
      // The emulator (or this request's merchant) was reset meanwhile: the state this request
      // was meant for is gone.
      if (ctx.runOf(merchant) !== run) {
        return fail(
          c,
          503,
          "service_unavailable",
          "The emulator was reset while this request waited on an injected latency.",
        );
      }
    }
    if (rule.status === undefined) await next();
    else c.res = injectedAnswer(c, ctx, rule, rule.status);
    const stall = rule.body_stall_ms;
    if (stall !== undefined) {
      c.res = await stalledBody(c.res, () =>
        ctx.clock.until(ctx.clock.now(merchant) + stall, merchant),
      );
    }
    return c.res;
  };
}

/** The answer of a fault with a status: the contract's body for that status. */
function injectedAnswer(
  c: Context<EmulatorEnv>,
  ctx: EmulatorContext,
  rule: FaultRule,
  status: number,
): Response {
  const code = rule.error ?? ERROR_CODES[status] ?? "error";
  if (status === 500 && !rule.error_description) return internalError(c, "Injected fault");
  if (status === 429 && !rule.error_description) {
    return tooManyRequests(c, ctx.rateLimiter.limit, rule.retry_after_seconds ?? 60);
  }
  if (status === 503 && !rule.error_description) {
    return serviceUnavailable(c, rule.retry_after_seconds ?? 30);
  }
  const headers: Record<string, string> = {};
  if (status === 429 || status === 503) {
    headers["Retry-After"] = String(rule.retry_after_seconds ?? 30);
  }
  return fail(c, status, code, rule.error_description ?? `Injected fault ${rule.id}`, headers);
}

/**
 * `answer` with its body cut in two: the status, the headers (the whole length announced) and the
 * first half at once, the rest once `held` resolves, unless the reader gave up before.
 */
async function stalledBody(answer: Response, held: () => Promise<void>): Promise<Response> {
  const body = new Uint8Array(await answer.arrayBuffer());
  const half = Math.floor(body.length / 2);
  const headers = new Headers(answer.headers);
  headers.set("content-length", String(body.length));
  let sent = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(body.slice(0, half));
        return;
      }
      await held();
      try {
        controller.enqueue(body.slice(half));
        controller.close();
      } catch {
        // The reader gave up meanwhile (the stream was cancelled): nothing left to send.
      }
    },
  });
  return new Response(stream, { status: answer.status, headers });
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Bearer authentication (contract, Authentication §2): a missing, unknown or expired token
 * answers 401 `unauthorized`. Then the per-client rate limit.
 */
export function requireBearer(ctx: EmulatorContext): MiddlewareHandler<EmulatorEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization");
    if (!header) {
      return unauthorized(c, "Authorization header missing: send Authorization: Bearer <token>.");
    }
    const token = BEARER.exec(header)?.[1];
    const access = token ? ctx.state.validAccessToken(token) : undefined;
    if (!access) return unauthorized(c, "The access token is invalid or expired.");
    c.set("auth", access);
    const decision = ctx.rateLimiter.hit(access.client_id, ctx.clock.now(access.merchant_id));
    if (!decision.ok) return tooManyRequests(c, ctx.rateLimiter.limit, decision.retryAfterSeconds);
    return next();
  };
}

function unauthorized(c: Context<EmulatorEnv>, description: string): Response {
  return fail(c, 401, "unauthorized", description, {
    "WWW-Authenticate": 'Bearer realm="service", error="invalid_token"',
  });
}

/** 403 `forbidden` when the token lacks the scope (contract: order update needs `updates`). */
export function requireScope(scope: Scope): MiddlewareHandler<EmulatorEnv> {
  return async (c, next) => {
    if (!c.get("auth").scopes.includes(scope)) {
      return fail(c, 403, "forbidden", `The access token lacks the scope \`${scope}\`.`);
    }
    return next();
  };
}
