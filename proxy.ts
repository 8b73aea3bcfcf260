import type { NextRequest } from "next/server";
import { withShopSession } from "@/lib/session/proxy-session";

export function proxy(request: NextRequest) {
  return withShopSession(request);
}

export const config = {
  // Pages and routes only: static assets and files with an extension need no session.
  matcher: ["/((?!_next/|.*\\.[a-z0-9]+$).*)"],
};
