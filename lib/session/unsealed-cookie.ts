import { type SessionOptions, unsealData } from "iron-session";
import type { ShopSessionData } from "./session-data";

type Kept = Map<string, { data: Readonly<ShopSessionData>; at: number }>;
/** Cookies unsealed (or sealed) lately, by their sealed text, per process: one map for every
 *  module copy, since Next bundles the proxy and the routes apart (kept on `globalThis` under a
 *  registry symbol, as the kit's processSingleton does; lib/session imports no integration). */
const registry = globalThis as unknown as Record<symbol, Kept | undefined>;
const KEY = Symbol.for("tradein-shop.unsealed-session-cookies");
registry[KEY] ??= new Map();
const unsealed: Kept = registry[KEY];
const MAX_KEPT = 10_000;
/** A seal expires after 30 days; an unsealed copy is trusted for one minute at most. */
const KEPT_FOR_MS = 60_000;

/**
 * What a sealed session cookie holds ({} for a forged, cut or expired one), for reading only.
 * Unsealing is a pure function of the cookie and the secret and costs about a third of a
 * millisecond of CPU (PBKDF2 and two HMACs), so a cookie seen in the last minute is not unsealed
 * again: the proxy and the page each unseal a shopper's cookie about once a minute instead of
 * on every request. Whether the cookie's token was revoked is not part of this: the proxy asks
 * the database on every request (lib/session/revocation.ts).
 */
export async function unsealSessionCookie(
  seal: string,
  options: Pick<SessionOptions, "password" | "ttl">,
  now = Date.now(),
): Promise<Readonly<ShopSessionData>> {
  const known = unsealed.get(seal);
  if (known && now - known.at <= KEPT_FOR_MS) return known.data;
  const data = Object.freeze(await unsealData<ShopSessionData>(seal, options));
  keep(seal, data, now);
  return data;
}

/**
 * A cookie this process has just sealed (the proxy, for a request that came without one): the
 * route the request goes on to reads it from here instead of unsealing what was sealed a moment
 * ago, which is a cookieless request's second PBKDF2 pair (docs/security.md, Bounded storage).
 * Only what was itself sealed is kept, so it reads exactly as unsealing would.
 */
export function rememberSealedCookie(
  seal: string,
  data: Readonly<ShopSessionData>,
  now = Date.now(),
): void {
  keep(seal, Object.freeze({ ...data }), now);
}

function keep(seal: string, data: Readonly<ShopSessionData>, now: number): void {
  unsealed.delete(seal);
  unsealed.set(seal, { data, at: now });
  if (unsealed.size > MAX_KEPT) {
    const oldest = unsealed.keys().next().value;
    if (oldest !== undefined) unsealed.delete(oldest);
  }
}
