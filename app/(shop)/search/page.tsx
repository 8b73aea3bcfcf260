import type { Metadata } from "next";
import { getShopSession } from "@/lib/session/session";
import { sessionCurrency } from "@/lib/session/session-data";
import { listProducts } from "@/lib/shop/catalog";
import { ProductGrid } from "@/lib/ui/product-card";

export const metadata: Metadata = { title: "Search" };

export default async function SearchPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const raw = (await searchParams).q;
  const query = (typeof raw === "string" ? raw : "").trim().slice(0, 100);
  const currency = sessionCurrency(await getShopSession());
  const products = query ? await listProducts(currency, { query }) : [];
  return (
    <>
      <h1>{query ? `Results for “${query}”` : "Search"}</h1>
      {query ? <ProductGrid products={products} /> : <p>Type a product name in the search box.</p>}
    </>
  );
}
