import "server-only";
import { getIronSession } from "iron-session";
import type { CallbackSession } from "@/lib/service/callbacks";
import { shopSessionOptions } from "@/lib/session/session";
import { hasIdentity, type ShopSessionData } from "@/lib/session/session-data";

/**
 * The shopper's session as the callback routes see it: read from the sealed cookie of the
 * request itself (contract, Authentication 7: the callbacks rely on the shopper's own session
 * cookie), so the handlers run the same under Next and when called directly in tests. Read only:
 * nothing here writes a cookie. Null when the request carries no valid session.
 */
export async function readRequestSession(request: Request): Promise<CallbackSession | null> {
  // The request/response form: the cookie is read from the request's own header; the response
  // is a throwaway, since nothing is saved here.
  const session = await getIronSession<ShopSessionData>(
    request,
    new Response(),
    shopSessionOptions(),
  );
  if (!hasIdentity(session)) return null;
  return { sessionId: session.sessionId, salt: session.salt, customerId: session.customerId };
}
