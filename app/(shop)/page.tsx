import { pageCurrency } from "@/lib/session/page-visitor";
import { listProducts } from "@/lib/shop/catalog";
import { Link } from "@/lib/ui/link";
import { ProductGrid } from "@/lib/ui/product-card";
import { TeaserSlot } from "@/lib/ui/teaser-slot";

export default async function HomePage() {
  const currency = await pageCurrency();
  const products = await listProducts(currency);
  return (
    <>
      <TeaserSlot type="banner" />
      <section className="hero" aria-labelledby="hero-title">
        <div className="hero__text">
          <h1 id="hero-title">Good tech, fairly priced</h1>
          <p>
            Phones, tablets, laptops and audio. Delivered across Ireland, the UK and Europe. Trade
            in the device you have and pay less for the new one.
          </p>
          <Link href="/category/phones" className="button button--primary">
            Shop phones
          </Link>
        </div>
        {/* biome-ignore lint/performance/noImgElement: a local SVG needs no optimisation */}
        <img src="/hero.svg" alt="" width={640} height={400} className="hero__image" />
      </section>
      <section aria-labelledby="all-title">
        <h2 id="all-title">All products</h2>
        <ProductGrid products={products} />
      </section>
    </>
  );
}
