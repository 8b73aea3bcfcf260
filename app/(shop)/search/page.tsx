import type { Metadata } from "next";
import { pageCurrency } from "@/lib/session/page-visitor";
import { listProducts, searchQueryOf } from "@/lib/shop/catalog";
import { CategoryLinks } from "@/lib/ui/category-links";
import { ProductGrid } from "@/lib/ui/product-card";

export async function generateMetadata({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}): Promise<Metadata> {
  const query = searchQueryOf((await searchParams).q);
  return { title: query ? `Search: ${query}` : "Search" };
}

export default async function SearchPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = searchQueryOf((await searchParams).q);
  const currency = await pageCurrency();
  const products = query ? await listProducts(currency, { query }) : [];
  return (
    <>
      <h1>{query ? `Results for “${query}”` : "Search"}</h1>
      {!query ? (
        <p>Type a product name, for example “Aurora” or “speaker”.</p>
      ) : products.length === 0 ? (
        <div className="empty-state" data-testid="no-results">
          <p>Nothing matches “{query}”. Check the spelling, or browse a category:</p>
          <CategoryLinks />
        </div>
      ) : (
        <ProductGrid products={products} />
      )}
    </>
  );
}
