import type { ProductView } from "@/lib/shop/catalog";
import { Link } from "@/lib/ui/link";
import { Money } from "./money";

function ProductCard({ product, eager = false }: { product: ProductView; eager?: boolean }) {
  return (
    <li className="product-card">
      <Link href={`/products/${product.slug}`} className="product-card__link">
        {/* biome-ignore lint/performance/noImgElement: local SVGs need no optimisation */}
        <img
          src={product.image}
          alt=""
          width={480}
          height={360}
          loading={eager ? "eager" : "lazy"}
          decoding="async"
        />
        <span className="product-card__name">{product.name}</span>
      </Link>
      <p className="product-card__category">{product.category.name}</p>
      <p className="product-card__price">
        <Money cents={product.price + product.tax} currency={product.currency} />
        <span className="muted"> incl. VAT</span>
      </p>
    </li>
  );
}

export function ProductGrid({ products }: { products: ProductView[] }) {
  if (products.length === 0) return <p>No products match.</p>;
  return (
    <ul className="product-grid">
      {products.map((product, index) => (
        <ProductCard key={product.id} product={product} eager={index < 2} />
      ))}
    </ul>
  );
}
