import { getIronSession, nextProxyCookies } from "iron-session";
import { type NextRequest, NextResponse } from "next/server";
import { shopSessionOptions } from "./session";
import { ensureIdentity, type ShopSessionData } from "./session-data";

/**
 * Every visitor gets a sealed session cookie with a random session id and salt on the first
 * request (issue #2), so pages, callbacks and the cart all see the same identity. Writing
 * through nextProxyCookies also updates the request, so the first render sees it too.
 */
export async function withShopSession(request: NextRequest): Promise<NextResponse> {
  const response = NextResponse.next();
  const session = await getIronSession<ShopSessionData>(
    nextProxyCookies(request, response),
    shopSessionOptions(),
  );
  if (ensureIdentity(session)) await session.save();
  return response;
}
