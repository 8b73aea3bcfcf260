import { getIronSession, nextProxyCookies } from "iron-session";
import { type NextRequest, NextResponse } from "next/server";
import { isRevoked } from "./revocation";
import { shopSessionOptions } from "./session";
import { ensureIdentity, hasToken, replaceIdentity, type ShopSessionData } from "./session-data";

/**
 * Every visitor gets a sealed session cookie with a random session id, salt and token on the
 * first request, so pages, callbacks and the cart all see the same identity. A cookie whose
 * token was revoked (logout, sign-out, or the cookie from before a login) is anonymous: it gets
 * a new identity and nothing of the old one. Writing through nextProxyCookies also updates the
 * request, so the page, action or route that runs next sees the replaced cookie.
 */
export async function withShopSession(request: NextRequest): Promise<NextResponse> {
  const response = NextResponse.next();
  const session = await getIronSession<ShopSessionData>(
    nextProxyCookies(request, response),
    shopSessionOptions(),
  );
  // A cookie without a token cannot be revoked, so it is never trusted with an identity.
  if (!hasToken(session) || (await isRevoked(session.token))) {
    replaceIdentity(session);
    await session.save();
  } else if (ensureIdentity(session)) {
    await session.save();
  }
  return response;
}
