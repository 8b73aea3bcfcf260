import "server-only";
import type { SessionIdentity, ShopperIdentity } from "@service-integration/kit";
import { shopSessionOptions } from "@/lib/session/session";
import { hasIdentity, SESSION_COOKIE } from "@/lib/session/session-data";
import { unsealSessionCookie } from "@/lib/session/unsealed-cookie";

/**
 * The kit's SessionIdentity over this shop's sealed `shop_session` cookie (lib/session). The
 * cookie's `sessionId` and `salt` are the service identity: login keeps them, logout and admin
 * sign-out replace them (replaceIdentity), and a cookie whose token was revoked is given a new
 * identity by proxy.ts before any route runs (docs/decisions/session-identity.md).
 *
 * Read from the request's own cookie header (contract, Authentication 7: the callbacks rely on
 * the shopper's own session cookie), so the handlers run the same under Next and when called
 * directly in tests. Read only: nothing here writes a cookie. Null when the request carries no
 * valid session. Opened through the process's memory of cookies seen or sealed in the last minute
 * (lib/session/unsealed-cookie.ts): the SDK's callbacks of a returning shopper, and the route of a
 * cookieless request whose cookie the proxy sealed just now, are not unsealed again.
 */
export const shopSessionIdentity: SessionIdentity = {
  async ofRequest(request: Request): Promise<ShopperIdentity | null> {
    const seal = cookieValue(request.headers.get("cookie") ?? "", SESSION_COOKIE);
    if (!seal) return null;
    const { password, ttl } = shopSessionOptions();
    const session = await unsealSessionCookie(seal, { password, ttl });
    if (!hasIdentity(session)) return null;
    return { sessionId: session.sessionId, salt: session.salt, customerId: session.customerId };
  },
};

/** The first value of cookie `name` in a Cookie header, percent-decoded as iron-session reads it
 *  (a value that does not decode is taken as it is). */
function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const raw = part.slice(at + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}
