import "server-only";
import type { SessionIdentity, ShopperIdentity } from "@service-integration/kit";
import { getIronSession } from "iron-session";
import { shopSessionOptions } from "@/lib/session/session";
import { hasIdentity, type ShopSessionData } from "@/lib/session/session-data";

/**
 * The kit's SessionIdentity over this shop's sealed `shop_session` cookie (lib/session). The
 * cookie's `sessionId` and `salt` are the service identity: login keeps them, logout and admin
 * sign-out replace them (replaceIdentity), and a cookie whose token was revoked is given a new
 * identity by proxy.ts before any route runs (docs/decisions/session-identity.md).
 *
 * Read from the request's own cookie header (contract, Authentication 7: the callbacks rely on
 * the shopper's own session cookie), so the handlers run the same under Next and when called
 * directly in tests. Read only: nothing here writes a cookie. Null when the request carries no
 * valid session.
 */
export const shopSessionIdentity: SessionIdentity = {
  async ofRequest(request: Request): Promise<ShopperIdentity | null> {
    // The request/response form: the cookie is read from the request's own header; the
    // response is a throwaway, since nothing is saved here.
    const session = await getIronSession<ShopSessionData>(
      request,
      new Response(),
      shopSessionOptions(),
    );
    if (!hasIdentity(session)) return null;
    return { sessionId: session.sessionId, salt: session.salt, customerId: session.customerId };
  },
};
