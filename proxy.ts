import { type NextRequest, NextResponse } from "next/server";
import { declaresTooLargeBody, MAX_REQUEST_BODY_BYTES } from "@/lib/http/body-limit";
import {
  contentSecurityPolicy,
  isPrivatePath,
  originOf,
  STATIC_SECURITY_HEADERS,
} from "@/lib/http/security-headers";
import { screenServerAction } from "@/lib/http/server-action-request";
import { readServiceConfig } from "@/lib/service/config";
import { withShopSession } from "@/lib/session/proxy-session";

let sdkOrigin: string | undefined;

/** The SDK's origin for the policy; none (the SDK is then blocked) while the service settings
 *  are invalid, which the pages already report in their own way. */
function serviceSdkOrigin(): string {
  try {
    sdkOrigin ??= originOf(readServiceConfig().assetsUrl);
    return sdkOrigin;
  } catch {
    return "";
  }
}

export async function proxy(request: NextRequest) {
  if (
    request.method !== "GET" &&
    request.method !== "HEAD" &&
    declaresTooLargeBody(request.headers)
  ) {
    return NextResponse.json(
      {
        error: "payload_too_large",
        error_description: `The request body is larger than ${MAX_REQUEST_BODY_BYTES} bytes.`,
      },
      { status: 413, headers: { connection: "close", "cache-control": "no-store" } },
    );
  }
  const refused = await screenServerAction(request);
  if (refused) return refused;
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = contentSecurityPolicy({
    nonce,
    sdkOrigin: serviceSdkOrigin(),
    development: process.env.NODE_ENV === "development",
  });
  return withShopSession(request, (headers) => {
    // Next.js reads the nonce from the request's policy and puts it on its own scripts.
    headers.set("content-security-policy", csp);
    const response = NextResponse.next({ request: { headers } });
    response.headers.set("content-security-policy", csp);
    for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) {
      response.headers.set(name, value);
    }
    if (isPrivatePath(request.nextUrl.pathname)) response.headers.set("cache-control", "no-store");
    return response;
  });
}

export const config = {
  // Pages and routes only: static assets and files with an extension need no session, nor does
  // the service's server-to-server order webhook (contract: signature is its only authentication),
  // nor a scheduler's call of a job route (its bearer secret is; docs/decisions/scheduled-jobs.md).
  matcher: ["/((?!_next/|api/service/webhooks/|api/service/jobs/|.*\\.[a-z0-9]+$).*)"],
};
