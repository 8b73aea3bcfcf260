import { headers } from "next/headers";
import { cache } from "react";
import { getConfig } from "@/lib/config";
import { type CatalogRenderVariant, catalogRenderVariant } from "@/lib/http/catalog-render";
import type { Currency } from "@/lib/shop/money";
import { getPageSession } from "./session";
import { type ShopSessionData, sessionCurrency } from "./session-data";

/**
 * Whom a page is rendered for: a shopper (their session, their currency), or nobody, when the
 * shop renders a catalog page once to store it and serve it to everyone in that currency
 * (lib/http/catalog-render.ts). Layout and page ask once per render (React's `cache`). A catalog
 * render never reads the session, so nothing of anyone's can end up in what is stored.
 */
export type PageVisitor =
  | ({ kind: "catalog-render" } & CatalogRenderVariant)
  | { kind: "shopper"; currency: Currency; session: Readonly<ShopSessionData> };

export const getPageVisitor = cache(async (): Promise<PageVisitor> => {
  const variant = catalogRenderVariant(await headers(), getConfig().SESSION_SECRET);
  if (variant) return { kind: "catalog-render", ...variant };
  const session = await getPageSession();
  return { kind: "shopper", currency: sessionCurrency(session), session };
});

/** The currency a page shows its prices in. */
export async function pageCurrency(): Promise<Currency> {
  return (await getPageVisitor()).currency;
}
