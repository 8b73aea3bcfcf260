import { getIronSession, type IronSession } from "iron-session";
import { cookies } from "next/headers";
import { cache } from "react";
import { getConfig } from "@/lib/config";
import { hasIdentity, type ShopSessionData, sessionOptions } from "./session-data";

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
 * getShopSession for Server Components: unsealed once per render and shared by the layout and
 * the page (React's `cache` lives for one request's render). Read only: actions and route
 * handlers, which save the session, call getShopSession.
 */
export const getPageSession = cache(getShopSession);

/** Like getShopSession but guarantees the identity (throws if the proxy did not run). */
export async function requireSessionIdentity(): Promise<
  ShopSession & { sessionId: string; salt: string }
> {
  const session = await getShopSession();
  if (!hasIdentity(session)) throw new Error("Session identity missing: is proxy.ts running?");
  return session;
}
