import { inspectorEnabled, readServiceConfig } from "@service-integration/kit/server";
import { type NextRequest, NextResponse } from "next/server";
import { getConfig } from "@/lib/config";
import { declaresTooLargeBody, MAX_REQUEST_BODY_BYTES } from "@/lib/http/body-limit";
import { type CatalogRenderVariant, catalogRenderVariant } from "@/lib/http/catalog-render";
import {
  catalogPageStore,
  catalogRenderFetch,
  type StoredCatalogPage,
} from "@/lib/http/prerendered-catalog";
import {
  contentSecurityPolicy,
  isPrivatePath,
  originOf,
  STATIC_SECURITY_HEADERS,
} from "@/lib/http/security-headers";
import { screenServerAction } from "@/lib/http/server-action-request";
import { storedPageCurrency, withShopSession } from "@/lib/session/proxy-session";
import { sessionCurrency } from "@/lib/session/session-data";
import { catalogPageAddress, catalogVersion } from "@/lib/shop/catalog";
import type { Currency } from "@/lib/shop/money";
import { INSPECTOR_COOKIE, inspectorPlacementOf } from "@/lib/ui/inspector-placement";

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

const renderCatalogPage = (address: string, variant: CatalogRenderVariant) => {
  const { SHOP_BASE_URL, SESSION_SECRET } = getConfig();
  return catalogRenderFetch(SHOP_BASE_URL, SESSION_SECRET, address, variant);
};
/** Home, categories and products: a few dozen pages, each rendered on its first request. */
const catalogPages = catalogPageStore(renderCatalogPage);
/** Search results, one page per query: kept from a query's second request, at most 500. */
const searchPages = catalogPageStore(renderCatalogPage, { maxPages: 500, renderOnRequest: 2 });

/**
 * The address of the catalog page a stored page can answer the request with, or null: a
 * browser's plain GET of home, a category, a product or a search (lib/shop/catalog.ts:
 * catalogPageAddress), not Next's own RSC or prefetch requests (those are rendered per request,
 * for the shopper). Under `next dev` every page is rendered per request.
 */
async function storedCatalogAddress(request: NextRequest): Promise<string | null> {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const headers = request.headers;
  if (headers.has("rsc") || headers.has("next-router-prefetch") || headers.has("next-action")) {
    return null;
  }
  // Next's proxy adapter strips the router's own headers (rsc, next-router-state-tree, …) before
  // this function runs, so a client-side navigation's RSC fetch arrives looking like a page
  // request; answered with the stored HTML, the router gives up and loads the whole document.
  // A browser marks what it fetches: only a document load (or a client without the header)
  // gets the stored page.
  const destination = headers.get("sec-fetch-dest");
  if (destination !== null && destination !== "document") return null;
  const accept = headers.get("accept");
  if (accept && !accept.includes("text/html") && !accept.includes("*/*")) return null;
  if (process.env.NODE_ENV === "development") return null;
  return catalogPageAddress(request.nextUrl.pathname, request.nextUrl.searchParams);
}

async function storedCatalogPage(
  request: NextRequest,
  address: string,
  currency: Currency,
): Promise<NextResponse | null> {
  const variant = {
    currency,
    inspector: inspectorPlacementOf(
      inspectorEnabled(),
      request.cookies.get(INSPECTOR_COOKIE)?.value,
    ),
  };
  const store = address.startsWith("/search") ? searchPages : catalogPages;
  const page = await store.page(address, variant, await catalogVersion());
  return page ? storedPageResponse(request, page) : null;
}

function storedPageResponse(request: NextRequest, page: StoredCatalogPage): NextResponse {
  return new NextResponse(request.method === "HEAD" ? null : page.body, {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": contentSecurityPolicy({
        inlineScripts: { hashes: page.scriptHashes },
        sdkOrigin: serviceSdkOrigin(),
        development: false,
      }),
      // As Next.js answers its dynamic pages: the currency shown is the shopper's.
      "cache-control": "private, no-cache, no-store, max-age=0, must-revalidate",
      vary: "rsc, next-router-state-tree, next-router-prefetch",
      ...STATIC_SECURITY_HEADERS,
    },
  });
}

/** A catalog render goes to the page as nobody's: no cookies, and no policy to take a nonce from. */
function catalogRenderRequest(request: NextRequest): NextResponse {
  const headers = new Headers(request.headers);
  headers.delete("cookie");
  headers.delete("content-security-policy");
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("cache-control", "no-store");
  return response;
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
  if (
    request.method === "GET" &&
    catalogRenderVariant(request.headers, getConfig().SESSION_SECRET)
  ) {
    return catalogRenderRequest(request);
  }
  const address = await storedCatalogAddress(request);
  // A visitor with a session: the stored page of their currency (no cookie to write).
  const currency = address ? await storedPageCurrency(request) : null;
  if (address && currency) {
    const stored = await storedCatalogPage(request, address, currency);
    if (stored) return stored;
  }
  return withShopSession(request, async (headers, session) => {
    // A first visit: the new session's cookie goes with the stored page.
    if (address && !currency) {
      const stored = await storedCatalogPage(request, address, sessionCurrency(session));
      if (stored) return stored;
    }
    const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
    const csp = contentSecurityPolicy({
      inlineScripts: { nonce },
      sdkOrigin: serviceSdkOrigin(),
      development: process.env.NODE_ENV === "development",
    });
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
