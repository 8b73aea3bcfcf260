import { type NextRequest, NextResponse } from "next/server";
import { guests } from "./lib/guest";

// Every page and route but the webhook and the job routes gets a guest identity on the first
// visit: the cookie is set on the response and on this request already, so the page rendered
// now sees it (the kit's createGuestIdentity, packages/kit/README.md).
export function proxy(request: NextRequest) {
  const { cookie } = guests().ensure(request);
  if (!cookie) return NextResponse.next();
  request.cookies.set(cookie.name, cookie.value);
  const response = NextResponse.next({ request: { headers: request.headers } });
  response.cookies.set(cookie.name, cookie.value, cookie.options);
  return response;
}

export const config = {
  matcher: ["/((?!_next/|api/service/webhooks/|api/service/jobs/|favicon.ico).*)"],
};
