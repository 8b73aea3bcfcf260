import { createHmac, timingSafeEqual } from "node:crypto";
import { type Currency, isCurrency } from "@/lib/shop/money";
import type { InspectorPlacement } from "@/lib/ui/inspector-placement";

/**
 * A catalog render: the request the shop makes to itself to render a catalog page once, for
 * everyone, before it is stored and served under a hash policy (lib/http/prerendered-catalog.ts,
 * docs/decisions/catalog-rendering.md). It carries a token derived from the session secret, so
 * no visitor can ask for one; the proxy drops the request's cookies and the page reads no
 * session, so what is stored holds nobody's data. Its only inputs besides the path are the
 * variant: the currency, and where the demo's integration inspector sits (null when it is off).
 */
export interface CatalogRenderVariant {
  currency: Currency;
  inspector: InspectorPlacement | null;
}

const TOKEN_HEADER = "x-catalog-render";
const CURRENCY_HEADER = "x-catalog-currency";
const INSPECTOR_HEADER = "x-catalog-inspector";

function renderToken(sessionSecret: string): string {
  return createHmac("sha256", sessionSecret).update("catalog-render").digest("hex");
}

/** The headers that ask the shop for a catalog render of a variant. */
export function catalogRenderHeaders(
  sessionSecret: string,
  variant: CatalogRenderVariant,
): Record<string, string> {
  return {
    [TOKEN_HEADER]: renderToken(sessionSecret),
    [CURRENCY_HEADER]: variant.currency,
    ...(variant.inspector ? { [INSPECTOR_HEADER]: variant.inspector } : {}),
  };
}

/**
 * The variant of a catalog render, or null when the request is not one (no token, a wrong one,
 * or no known currency). Checked by the proxy and again by the page, since a path with a file
 * extension never passes through the proxy.
 */
export function catalogRenderVariant(
  headers: Headers,
  sessionSecret: string,
): CatalogRenderVariant | null {
  const given = headers.get(TOKEN_HEADER);
  if (!given) return null;
  const expected = Buffer.from(renderToken(sessionSecret));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
  const currency = headers.get(CURRENCY_HEADER);
  if (!isCurrency(currency)) return null;
  const inspector = headers.get(INSPECTOR_HEADER);
  return {
    currency,
    inspector:
      inspector === "open" || inspector === "closed" || inspector === "auto" ? inspector : null,
  };
}
