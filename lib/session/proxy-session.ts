import { getIronSession } from "iron-session";
import type { NextRequest, NextResponse } from "next/server";
import type { Currency } from "@/lib/shop/money";
import { isRevoked } from "./revocation";
import { shopSessionOptions } from "./session";
import {
  ensureIdentity,
  hasIdentity,
  hasToken,
  replaceIdentity,
  SESSION_COOKIE,
  type ShopSessionData,
  sessionCurrency,
} from "./session-data";
import { rememberSealedCookie, unsealSessionCookie } from "./unsealed-cookie";

type CookieOptions = Parameters<NextResponse["cookies"]["set"]>[2];

/**
 * Every visitor gets a sealed session cookie with a random session id, salt and token on the
 * first request, so pages, callbacks and the cart all see the same identity. A cookie whose
 * token was revoked (logout, sign-out, or the cookie from before a login) or that has no token
 * is anonymous: it gets a new identity and nothing of the old one. The cookie written here is
 * in the request headers handed to `respond` too, so the page, action or route that runs next
 * sees the replaced cookie.
 */
export async function withShopSession(
  request: NextRequest,
  respond: (
    requestHeaders: Headers,
    session: Readonly<ShopSessionData>,
  ) => NextResponse | Promise<NextResponse>,
): Promise<NextResponse> {
  // The common case: a live cookie with an identity, which nothing here changes (the revocation
  // list is asked every time).
  const known = await cookieWithIdentity(request);
  if (known && !(await isRevoked(known.token))) {
    return respond(new Headers(request.headers), known);
  }
  const written: [string, string, CookieOptions][] = [];
  // iron-session's cookie-store form (the shape of next/headers' cookies()): read from the
  // request, and every cookie written goes both into the request and onto the response.
  function set(name: string, value: string, options?: CookieOptions): void;
  function set(cookie: { name: string; value: string } & CookieOptions): void;
  function set(
    first: string | ({ name: string; value: string } & CookieOptions),
    value?: string,
    options?: CookieOptions,
  ): void {
    if (typeof first !== "string") {
      const { name, value: text, ...attributes } = first;
      set(name, text, attributes);
      return;
    }
    request.cookies.set(first, value ?? "");
    written.push([first, value ?? "", options]);
  }
  const jar = { get: (name: string) => request.cookies.get(name), set };
  const session = await getIronSession<ShopSessionData>(jar, shopSessionOptions());
  // A revoked token is answered as anonymous, but the new identity is not sent back: the request
  // may be one the page had in flight while the same browser logged in or out, and a Set-Cookie
  // here would overwrite the cookie that login or logout just gave it. A stolen copy gains
  // nothing either way: every request it makes is anonymous.
  let sendCookie = true;
  if (!hasToken(session)) {
    replaceIdentity(session);
    await session.save();
  } else if (await isRevoked(session.token)) {
    replaceIdentity(session);
    await session.save();
    sendCookie = false;
  } else if (ensureIdentity(session)) {
    await session.save();
  }
  // The page, action or route this request goes on to reads the cookie sealed just now from the
  // process's memory instead of unsealing it again (a cookieless request's second seal opening).
  const sealed = written.findLast(([name]) => name === SESSION_COOKIE)?.[1];
  if (sealed) rememberSealedCookie(sealed, session);
  const response = await respond(new Headers(request.headers), session);
  if (sendCookie) {
    for (const [name, value, options] of written) response.cookies.set(name, value, options);
  }
  return response;
}

/**
 * The currency of a visitor who has a session, to choose which stored catalog page to serve
 * (docs/decisions/catalog-rendering.md); null when the request has no session with an identity
 * (then withShopSession gives it one). Unlike withShopSession it does not ask whether the
 * cookie's token was revoked: a stored page is the same for everyone in a currency and the
 * cookie chooses only that, and whatever the page then asks for with the cookie (the header's
 * cart count, an action, a route) passes withShopSession, where a revoked cookie is anonymous.
 */
export async function storedPageCurrency(request: NextRequest): Promise<Currency | null> {
  const known = await cookieWithIdentity(request).catch(() => null);
  return known ? sessionCurrency(known) : null;
}

/** The request's session cookie if it holds a token and an identity (revoked or not), from the
 *  once-a-minute unsealing (lib/session/unsealed-cookie.ts); else null. */
async function cookieWithIdentity(
  request: NextRequest,
): Promise<(Readonly<ShopSessionData> & { token: string }) | null> {
  const seal = request.cookies.get(SESSION_COOKIE)?.value;
  if (!seal) return null;
  const { password, ttl } = shopSessionOptions();
  const data = await unsealSessionCookie(seal, { password, ttl });
  return hasToken(data) && hasIdentity(data) ? data : null;
}
