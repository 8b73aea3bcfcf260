import { randomBytes } from "node:crypto";
import type { SessionOptions } from "iron-session";
import { type Currency, isCurrency } from "@/lib/shop/money";

/**
 * What the sealed cookie carries. `sessionId` and `salt` are what the session hash is made of
 * (contract, Session hash: HMAC-SHA256 keyed by the per-session salt over the session id);
 * The kit computes the hash, this module only provides the two values.
 */
export interface ShopSessionData {
  sessionId?: string;
  salt?: string;
  /**
   * The authentication token of this cookie, replaced at every login, logout and admin sign-in
   * or sign-out; the replaced one is revoked in the database (lib/session/revocation.ts), so a
   * copy of the cookie from before is anonymous afterwards. `sessionId`/`salt` are the identity
   * the service knows (the session hash) and survive login (docs/decisions/session-identity.md).
   */
  token?: string;
  customerId?: string;
  currency?: Currency;
  /** set by the admin login; the back office checks it on every request */
  admin?: boolean;
}

export const SESSION_COOKIE = "shop_session";

/** Session cookie lifetime of 30 days; the seal expires with it. */
export const SESSION_TTL_SECONDS = 60 * 60 * 24 * 30;

export function sessionOptions(secret: string, production: boolean): SessionOptions {
  return {
    cookieName: SESSION_COOKIE,
    password: secret,
    ttl: SESSION_TTL_SECONDS,
    cookieOptions: { httpOnly: true, sameSite: "lax", secure: production, path: "/" },
  };
}

/** 32 random bytes, hex: used for both the session id and its salt. */
export function randomHex32(): string {
  return randomBytes(32).toString("hex");
}

const HEX64 = /^[0-9a-f]{64}$/;

export function hasIdentity(data: ShopSessionData): data is ShopSessionData & {
  sessionId: string;
  salt: string;
} {
  return (
    typeof data.sessionId === "string" &&
    HEX64.test(data.sessionId) &&
    typeof data.salt === "string" &&
    HEX64.test(data.salt)
  );
}

export function hasToken(data: ShopSessionData): data is ShopSessionData & { token: string } {
  return typeof data.token === "string" && HEX64.test(data.token);
}

/**
 * Gives a session without a valid identity a fresh id, salt and token (and one without a token
 * a token); returns whether it changed.
 */
export function ensureIdentity(data: ShopSessionData): boolean {
  let changed = false;
  if (!hasIdentity(data)) {
    data.sessionId = randomHex32();
    data.salt = randomHex32();
    changed = true;
  }
  if (!hasToken(data)) {
    data.token = randomHex32();
    changed = true;
  }
  return changed;
}

/**
 * An ended session: nothing of it is kept but the shopper's display currency; a new identity
 * (session id, salt, token) takes its place.
 */
export function replaceIdentity(data: ShopSessionData): void {
  const currency = data.currency;
  for (const key of Object.keys(data) as (keyof ShopSessionData)[]) delete data[key];
  if (currency) data.currency = currency;
  ensureIdentity(data);
}

export function sessionCurrency(data: ShopSessionData): Currency {
  return isCurrency(data.currency) ? data.currency : "EUR";
}
