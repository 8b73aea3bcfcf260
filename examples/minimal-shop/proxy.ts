import { type NextRequest, NextResponse } from "next/server";
import { cookieOptions, newSession, SESSION_COOKIE, seal, unseal } from "./lib/session";

// Every page and route but the webhook gets a guest identity on the first visit: the cookie is
// set on the response and on this request already, so the page rendered now sees it.
export function proxy(request: NextRequest) {
  if (unseal(request.cookies.get(SESSION_COOKIE)?.value)) return NextResponse.next();
  const value = seal(newSession());
  request.cookies.set(SESSION_COOKIE, value);
  const response = NextResponse.next({ request: { headers: request.headers } });
  response.cookies.set(SESSION_COOKIE, value, cookieOptions);
  return response;
}

export const config = { matcher: ["/((?!_next/|api/service/webhooks/|favicon.ico).*)"] };
