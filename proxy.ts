import type { NextRequest } from "next/server";
import { withShopSession } from "@/lib/session/proxy-session";

export function proxy(request: NextRequest) {
  return withShopSession(request);
}

export const config = {
  // Pages and routes only: static assets and files with an extension need no session, nor does
  // the service's server-to-server order webhook (contract: signature is its only authentication).
  matcher: ["/((?!_next/|api/service/webhooks/|.*\\.[a-z0-9]+$).*)"],
};
