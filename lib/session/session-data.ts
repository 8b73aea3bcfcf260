import { randomBytes } from "node:crypto";
import type { SessionOptions } from "iron-session";
import { type Currency, isCurrency } from "@/lib/shop/money";

/**
 * What the sealed cookie carries. `sessionId` and `salt` are what the session hash is made of
 * (contract, Session hash: HMAC-SHA256 keyed by the per-session salt over the session id);
 * lib/service computes the hash, this module only provides the two values.
 */
export interface ShopSessionData {
  sessionId?: string;
  salt?: string;
  customerId?: string;
  currency?: Currency;
  /** set by the admin login; the back office checks it on every request */
  admin?: boolean;
}

export const SESSION_COOKIE = "shop_session";

export function sessionOptions(secret: string, production: boolean): SessionOptions {
  return {
    cookieName: SESSION_COOKIE,
    password: secret,
    // Session cookie lifetime of 30 days; the seal expires with it.
    ttl: 60 * 60 * 24 * 30,
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

/** Gives a session without a valid identity a fresh id and salt; returns whether it changed. */
export function ensureIdentity(data: ShopSessionData): boolean {
  if (hasIdentity(data)) return false;
  data.sessionId = randomHex32();
  data.salt = randomHex32();
  return true;
}

export function sessionCurrency(data: ShopSessionData): Currency {
  return isCurrency(data.currency) ? data.currency : "EUR";
}
