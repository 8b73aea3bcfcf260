import { createHash, timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import type { EmulatorContext, EmulatorEnv, EmulatorModule } from "../context";
import { type OAuthClient, SCOPES, type Scope } from "../domain";
import { mediaType } from "../http/body";
import { fail, reply, tooManyRequests } from "../http/errors";
import { LIFETIMES } from "../state/store";

// POST /oauth2/token/ (contract, Authentication §1 and the token rows of the error table;
// RFC 6749 §4.3 password grant, §6 refresh, §5.1/§5.2 responses).

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };
/** RFC 6749 §3.3: scope = scope-token *( SP scope-token ). */
const SCOPE_SYNTAX = /^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/;

type OAuthError =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope";

function oauthError(
  c: Context<EmulatorEnv>,
  status: 400 | 401,
  error: OAuthError,
  description: string,
  headers: Record<string, string> = {},
): Response {
  return fail(c, status, error, description, { ...NO_STORE, ...headers });
}

function sameSecret(a: string, b: string): boolean {
  // Hash first so that the comparison is constant-time whatever the lengths.
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb);
}

function decodeFormComponent(value: string): string | null {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return null;
  }
}

/** RFC 6749 §2.3.1: HTTP Basic with form-urlencoded client id and secret. */
export function authenticateClient(
  ctx: EmulatorContext,
  header: string | undefined,
): OAuthClient | null {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon === -1) return null;
  const id = decodeFormComponent(decoded.slice(0, colon));
  const secret = decodeFormComponent(decoded.slice(colon + 1));
  if (id === null || secret === null) return null;
  const client = ctx.state.getClient(id);
  if (!client) {
    sameSecret(secret, secret); // same work whether or not the client exists
    return null;
  }
  return sameSecret(secret, client.client_secret) ? client : null;
}

/** Parses a requested scope; null = malformed or unknown. */
function parseScope(raw: string): Scope[] | null {
  if (!SCOPE_SYNTAX.test(raw)) return null;
  const out: Scope[] = [];
  for (const token of raw.split(" ")) {
    if (!(SCOPES as readonly string[]).includes(token)) return null;
    if (!out.includes(token as Scope)) out.push(token as Scope);
  }
  return out;
}

export const oauthModule: EmulatorModule = {
  name: "oauth",
  mount(app, ctx) {
    app.post("/oauth2/token/", async (c) => {
      const client = authenticateClient(ctx, c.req.header("authorization"));
      if (!client) {
        return oauthError(
          c,
          401,
          "invalid_client",
          "Client authentication failed: send Authorization: Basic base64(client_id:client_secret).",
          { "WWW-Authenticate": 'Basic realm="service"' },
        );
      }
      c.set("clientId", client.client_id);
      const decision = ctx.rateLimiter.hit(client.client_id, ctx.clock.now(client.merchant_id));
      if (!decision.ok)
        return tooManyRequests(c, ctx.rateLimiter.limit, decision.retryAfterSeconds);

      if (mediaType(c) !== "application/x-www-form-urlencoded") {
        return oauthError(
          c,
          400,
          "invalid_request",
          "The body must be application/x-www-form-urlencoded.",
        );
      }
      const form = new URLSearchParams(await c.req.text());
      for (const key of new Set(form.keys())) {
        // RFC 6749 §3.2: parameters must not be included more than once.
        if (form.getAll(key).length > 1) {
          return oauthError(c, 400, "invalid_request", `Parameter ${key} repeated.`);
        }
      }
      const grantType = form.get("grant_type");
      if (!grantType) return oauthError(c, 400, "invalid_request", "grant_type is required.");

      if (grantType === "password") {
        const username = form.get("username");
        const password = form.get("password");
        if (!username || password === null) {
          return oauthError(c, 400, "invalid_request", "username and password are required.");
        }
        const user = ctx.state.findUser(client.merchant_id, username);
        const passwordOk = sameSecret(password, user?.password ?? "");
        if (!user || !passwordOk) {
          return oauthError(c, 400, "invalid_grant", "Wrong username or password.");
        }
        const rawScope = form.get("scope");
        let scopes: Scope[] = user.scopes;
        if (rawScope !== null && rawScope !== "") {
          const requested = parseScope(rawScope);
          if (!requested) {
            return oauthError(
              c,
              400,
              "invalid_scope",
              `Scope "${rawScope}" is malformed or unknown; known scopes: ${SCOPES.join(" ")}.`,
            );
          }
          const beyond = requested.filter((s) => !user.scopes.includes(s));
          if (beyond.length > 0) {
            return oauthError(
              c,
              400,
              "invalid_scope",
              `Scope beyond what this user is granted: ${beyond.join(" ")}.`,
            );
          }
          scopes = requested;
        }
        return tokenResponse(c, ctx, client, user.id, scopes);
      }

      if (grantType === "refresh_token") {
        const token = form.get("refresh_token");
        if (!token) return oauthError(c, 400, "invalid_request", "refresh_token is required.");
        const refresh = ctx.state.getRefreshToken(token);
        if (!refresh || refresh.revoked || refresh.client_id !== client.client_id) {
          return oauthError(
            c,
            400,
            "invalid_grant",
            "The refresh token is unknown, already used, or was issued to another client.",
          );
        }
        if (ctx.clock.now(refresh.merchant_id) >= refresh.expires_at) {
          // Contract, error table: expired refresh token → 401 invalid_grant.
          return oauthError(c, 401, "invalid_grant", "The refresh token has expired.");
        }
        const user = ctx.state.getUser(refresh.user_id);
        if (!user) return oauthError(c, 400, "invalid_grant", "The user no longer exists.");
        const rawScope = form.get("scope");
        let scopes = refresh.scopes;
        if (rawScope !== null && rawScope !== "") {
          const requested = parseScope(rawScope);
          if (!requested || requested.some((s) => !refresh.scopes.includes(s))) {
            return oauthError(
              c,
              400,
              "invalid_scope",
              "A refresh may only keep or narrow the scope originally granted.",
            );
          }
          scopes = requested;
        }
        // Refresh tokens rotate: the used one stops working (RFC 6749 §6 allows it).
        ctx.state.revokeRefreshToken(token);
        return tokenResponse(c, ctx, client, user.id, scopes);
      }

      return oauthError(
        c,
        400,
        "unsupported_grant_type",
        `grant_type ${grantType} is not supported; use password or refresh_token.`,
      );
    });
  },
};

function tokenResponse(
  c: Context<EmulatorEnv>,
  ctx: EmulatorContext,
  client: OAuthClient,
  userId: string,
  scopes: Scope[],
): Response {
  const user = ctx.state.getUser(userId);
  if (!user) return oauthError(c, 400, "invalid_grant", "Unknown user.");
  const { access, refresh } = ctx.state.issueTokens(client, user, scopes);
  return reply(
    c,
    {
      access_token: access.token,
      token_type: "Bearer",
      expires_in: LIFETIMES.accessToken / 1000,
      refresh_token: refresh.token,
      scope: scopes.join(" "),
      user_id: user.id,
      merchant_id: user.merchant_id,
    },
    200,
    NO_STORE,
  );
}
