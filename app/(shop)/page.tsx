import { getShopSession } from "@/lib/session/session";
import { sessionCurrency } from "@/lib/session/session-data";
import { listProducts } from "@/lib/shop/catalog";
import { ProductGrid } from "@/lib/ui/product-card";
import { TeaserSlot } from "@/lib/ui/teaser-slot";

export default async function HomePage() {
  const currency = sessionCurrency(await getShopSession());
  const products = await listProducts(currency);
  return (
    <>
      <TeaserSlot type="banner" />
      <section className="hero" aria-labelledby="hero-title">
        <h1 id="hero-title">Good tech, fairly priced</h1>
        <p>Phones, tablets, laptops and audio. Delivered across Ireland, the UK and Europe.</p>
      </section>
      <section aria-labelledby="all-title">
        <h2 id="all-title">All products</h2>
        <ProductGrid products={products} />
      </section>
    </>
  );
}
