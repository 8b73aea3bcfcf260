import { getIronSession, type IronSession } from "iron-session";
import { cookies } from "next/headers";
import { cache } from "react";
import { getConfig } from "@/lib/config";
import { hasIdentity, SESSION_COOKIE, type ShopSessionData, sessionOptions } from "./session-data";
import { unsealSessionCookie } from "./unsealed-cookie";

export type ShopSession = IronSession<ShopSessionData>;

export function shopSessionOptions() {
  const config = getConfig();
  return sessionOptions(config.SESSION_SECRET, config.NODE_ENV === "production");
}

/**
 * The visitor's session, server-side only (Server Components, Server Actions, route handlers,
 * including app/api/service/**). proxy.ts gives every visitor an identity before any page or
 * route runs, so `sessionId` and `salt` are present; `save()` works in actions and route
 * handlers only. Never render `sessionId` or `salt`.
 */
export async function getShopSession(): Promise<ShopSession> {
  return getIronSession<ShopSessionData>(await cookies(), shopSessionOptions());
}

/**
 * The session for Server Components, read only: shared by the layout and the page (React's
 * `cache` lives for one request's render), and a cookie seen in the last minute is not unsealed
 * again (lib/session/unsealed-cookie.ts). Actions and route handlers, which save the session,
 * call getShopSession.
 */
export const getPageSession = cache(async (): Promise<Readonly<ShopSessionData>> => {
  const seal = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!seal) return {};
  const { password, ttl } = shopSessionOptions();
  return unsealSessionCookie(seal, { password, ttl });
});

/** Like getShopSession but guarantees the identity (throws if the proxy did not run). */
export async function requireSessionIdentity(): Promise<
  ShopSession & { sessionId: string; salt: string }
> {
  const session = await getShopSession();
  if (!hasIdentity(session)) throw new Error("Session identity missing: is proxy.ts running?");
  return session;
}
