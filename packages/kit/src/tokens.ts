import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { ServiceConfig } from "./config.js";
import { parseErrorBody, ServiceApiError, ServiceResponseError } from "./errors.js";
import type { HttpRequest, HttpResponse, HttpTransport } from "./http.js";
import type { StoredTokens, TokenStore } from "./shop-ports.js";

/**
 * The token manager (contract: Authentication 1–4, Endpoints › POST /oauth2/token/).
 *
 * - Password grant with HTTP Basic client credentials; refresh with grant_type=refresh_token.
 * - Access tokens live 1 hour; we keep the expiry ourselves (`expires_in` when the answer has
 *   it, else 3600 s) and renew when expired or within `refreshMarginMs` (5 min) of it.
 * - A 401 from an API call renews once and retries once.
 * - A failed refresh (e.g. 401 invalid_grant for an expired refresh token) logs in again.
 * - Concurrent callers in this process share one renewal (single-flight); the tokens live in a
 *   TokenStore (the database) so other instances reuse them rather than logging in themselves.
 * - Across instances, a renewal runs only under the store's renewal lease: an expiry (or a 401)
 *   that every instance notices at once costs one grant; the others wait for the lease holder's
 *   tokens and reuse them. Several grants would also rotate the refresh token under each other.
 */

export const TOKEN_PATH = "/oauth2/token/";
/** Contract: Authentication 3 — core, payments, valuations at login; updates for order updates.
 *  All four are asked for, so order updates need no second login… */
export const REQUESTED_SCOPE = "core payments valuations updates";
/** …and when the user may not have `updates` (400 invalid_scope), the contract's login scopes
 *  are asked for instead, so the shop still works and an order update answers 403 in words. */
const BASE_SCOPE = "core payments valuations";
const DEFAULT_LIFETIME_S = 3600;
const DEFAULT_REFRESH_MARGIN_MS = 5 * 60 * 1000;
/** How long a renewal may hold the lease: longer than a token request with its retries take. */
const RENEWAL_LEASE_MS = 30_000;
/** How often an instance waiting for another's renewal looks for the new tokens. */
const RENEWAL_POLL_MS = 100;

// Tolerant: only access_token is needed from every answer. The contract lists no expiry field
// ("not shown"); ids may come back as numbers from some servers, so they are coerced to text.
const id = z.union([z.string().min(1), z.number()]).transform(String);
const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  user_id: id.optional(),
  merchant_id: id.optional(),
  expires_in: z.coerce.number().positive().optional(),
  scope: z.string().optional(),
});

/** The password grant's credentials (contract: Authentication 1). */
export type TokenCredentials = Pick<
  ServiceConfig,
  "clientId" | "clientSecret" | "username" | "password"
>;

/** What a TokenManager takes. */
export interface TokenManagerOptions {
  /** The client and user credentials of the password grant. */
  credentials: TokenCredentials;
  /** The HTTP transport the token requests go through. */
  transport: HttpTransport;
  /** Where the tokens and the renewal lease are kept (shared by every instance). */
  store: TokenStore;
  /** The clock, epoch milliseconds (default Date.now). */
  now?: () => number;
  /** Waits between looks at the store while another instance renews (default: setTimeout). */
  sleep?: (ms: number) => Promise<void>;
  /** How long before expiry a token is renewed, in milliseconds (default 5 minutes). */
  refreshMarginMs?: number;
  /** Names this process as the lease holder (default: a random id). */
  holder?: string;
}

/** The service's OAuth tokens (contract: Authentication 1–4): login, refresh before expiry,
 *  one renewal across instances under the store's lease, one retry after a 401. */
export class TokenManager {
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly refreshMarginMs: number;
  private readonly holder: string;
  private inFlight: Promise<StoredTokens> | null = null;

  constructor(private readonly options: TokenManagerOptions) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.refreshMarginMs = options.refreshMarginMs ?? DEFAULT_REFRESH_MARGIN_MS;
    this.holder = options.holder ?? randomUUID();
  }

  /** Tokens good for at least the refresh margin, renewing first when needed. */
  async getTokens(): Promise<StoredTokens> {
    const current = await this.options.store.load();
    if (current && this.isFresh(current)) return current;
    return this.renew(current?.accessToken ?? null);
  }

  /** The bearer token for the next call (getTokens's access token). */
  async getAccessToken(): Promise<string> {
    return (await this.getTokens()).accessToken;
  }

  /** `user_id` and `merchant_id` from the token response: the webhook secret and the SDK's
   *  merchantId are built from them (contract: Authentication 5, Front-end SDK). */
  async getIdentity(): Promise<{
    /** The token response's `user_id`. */
    userId: string;
    /** The token response's `merchant_id`. */
    merchantId: string;
  }> {
    // The ids do not change when a token expires, so stored ones are used as they are: verifying
    // a webhook must not wait on (or fail with) a token refresh.
    const { userId, merchantId } = (await this.options.store.load()) ?? (await this.getTokens());
    return { userId, merchantId };
  }

  /** Whether the current token carries a scope, e.g. `updates` before offering order updates. */
  async hasScope(scope: string): Promise<boolean> {
    return (await this.getTokens()).scope.split(/\s+/).includes(scope);
  }

  /**
   * Sends an API request with `Authorization: Bearer`, renewing once and retrying once on a 401
   * (contract: Authentication 4). A 401 means the request was refused, so repeating it is safe
   * even for a POST. The second answer is returned whatever it is: no loop.
   */
  async send(transport: HttpTransport, request: HttpRequest): Promise<HttpResponse> {
    const token = await this.getAccessToken();
    const first = await transport.send(withBearer(request, token));
    if (first.status !== 401) return first;
    const renewed = (await this.renew(token)).accessToken;
    return transport.send(withBearer(request, renewed));
  }

  /**
   * Renews the tokens that replaced `stale` (null: none known). Single-flight: callers that
   * arrive while a renewal runs share its result. Inside, the store is read again, so a renewal
   * another caller or instance already saved is reused rather than repeated.
   */
  private renew(stale: string | null): Promise<StoredTokens> {
    this.inFlight ??= this.doRenew(stale).finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async doRenew(stale: string | null): Promise<StoredTokens> {
    const { store } = this.options;
    // Waits at most a little longer than a lease lives: a holder that died has lost it by then.
    const waitUntil = Date.now() + RENEWAL_LEASE_MS + 5_000;
    for (;;) {
      const current = await store.load();
      if (this.replaces(current, stale)) return current;
      if (await store.acquireRenewalLease(this.holder, RENEWAL_LEASE_MS)) {
        try {
          // Read again under the lease: the previous holder may have saved just now.
          const latest = await store.load();
          if (this.replaces(latest, stale)) return latest;
          const next = await this.renewFrom(latest);
          await store.save(next);
          return next;
        } finally {
          await store.releaseRenewalLease(this.holder);
        }
      }
      if (Date.now() > waitUntil) {
        throw new Error("Another instance held the token renewal lease for too long");
      }
      await this.sleep(RENEWAL_POLL_MS);
    }
  }

  /** Whether `tokens` are usable tokens other than the `stale` ones being replaced. */
  private replaces(tokens: StoredTokens | null, stale: string | null): tokens is StoredTokens {
    return tokens !== null && tokens.accessToken !== stale && this.isFresh(tokens);
  }

  /** One grant: a refresh when there is a refresh token, else (or when it is refused) a login. */
  private async renewFrom(current: StoredTokens | null): Promise<StoredTokens> {
    let next: StoredTokens | null = null;
    if (current?.refreshToken) {
      try {
        next = await this.refresh(current);
      } catch (error) {
        // Contract: "if refresh fails, re-authenticate with the username and password". Only a
        // refusal (400/401 invalid_grant) says the refresh token is dead; a 5xx or a timeout says
        // nothing about it, so that error is passed on instead of logging in again.
        if (!(error instanceof ServiceApiError && (error.status === 400 || error.status === 401))) {
          throw error;
        }
      }
    }
    return next ?? this.passwordLogin();
  }

  private async passwordLogin(): Promise<StoredTokens> {
    try {
      return await this.passwordLoginWith(REQUESTED_SCOPE);
    } catch (error) {
      if (error instanceof ServiceApiError && error.error === "invalid_scope") {
        return this.passwordLoginWith(BASE_SCOPE);
      }
      throw error;
    }
  }

  private async passwordLoginWith(scope: string): Promise<StoredTokens> {
    const { username, password } = this.options.credentials;
    const answer = await this.requestToken({ grant_type: "password", username, password, scope });
    if (!answer.refresh_token || !answer.user_id || !answer.merchant_id) {
      throw new ServiceResponseError(
        "POST",
        TOKEN_PATH,
        "password grant answer lacks refresh_token, user_id or merchant_id",
      );
    }
    return this.toStored(answer, {
      refreshToken: answer.refresh_token,
      userId: answer.user_id,
      merchantId: answer.merchant_id,
      scope,
    });
  }

  private async refresh(current: StoredTokens): Promise<StoredTokens> {
    const answer = await this.requestToken({
      grant_type: "refresh_token",
      refresh_token: current.refreshToken,
    });
    // Fields a refresh answer leaves out keep their previous values (RFC 6749 §6 lets a server
    // keep the same refresh token).
    return this.toStored(answer, current);
  }

  private toStored(
    answer: z.infer<typeof tokenResponseSchema>,
    fallback: Pick<StoredTokens, "refreshToken" | "userId" | "merchantId" | "scope">,
  ): StoredTokens {
    const lifetimeS = answer.expires_in ?? DEFAULT_LIFETIME_S;
    return {
      accessToken: answer.access_token,
      refreshToken: answer.refresh_token ?? fallback.refreshToken,
      userId: answer.user_id ?? fallback.userId,
      merchantId: answer.merchant_id ?? fallback.merchantId,
      scope: answer.scope ?? fallback.scope,
      accessExpiresAt: new Date(this.now() + lifetimeS * 1000),
    };
  }

  private async requestToken(form: Record<string, string>) {
    const { clientId, clientSecret } = this.options.credentials;
    const response = await this.options.transport.send({
      method: "POST",
      path: TOKEN_PATH,
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`, "utf8").toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: new URLSearchParams(form).toString(),
      // Asking for a token twice only issues a spare token; a retried refresh that finds its
      // refresh token already used fails with invalid_grant and falls back to a login.
      safeToRepeat: true,
      step: form.grant_type ?? "token",
    });
    if (response.status < 200 || response.status >= 300) {
      throw new ServiceApiError({
        status: response.status,
        method: "POST",
        path: TOKEN_PATH,
        ...parseErrorBody(response.text),
      });
    }
    let json: unknown;
    try {
      json = JSON.parse(response.text);
    } catch {
      throw new ServiceResponseError("POST", TOKEN_PATH, "token answer is not JSON");
    }
    const parsed = tokenResponseSchema.safeParse(json);
    if (!parsed.success) {
      throw new ServiceResponseError("POST", TOKEN_PATH, z.prettifyError(parsed.error));
    }
    return parsed.data;
  }

  private isFresh(tokens: StoredTokens): boolean {
    return this.now() < tokens.accessExpiresAt.getTime() - this.refreshMarginMs;
  }
}

function withBearer(request: HttpRequest, token: string): HttpRequest {
  return { ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } };
}
