import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { pageCurrency } from "@/lib/session/page-visitor";
import { QUANTITY_CHOICES } from "@/lib/shop/cart";
import { getProduct } from "@/lib/shop/catalog";
import { DEFAULT_SHIPPING_METHOD, deliveryShown } from "@/lib/shop/shipping";
import { AddToCartForm } from "@/lib/ui/add-to-cart-form";
import { Link } from "@/lib/ui/link";
import { Money } from "@/lib/ui/money";
import { TeaserSlot } from "@/lib/ui/teaser-slot";
import { ProductPriceWithTradeIn } from "@/lib/ui/trade-in-amounts";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const product = await getProduct((await params).slug, "EUR");
  return product
    ? { title: product.name, description: product.description }
    : { title: "Page not found" };
}

export default async function ProductPage({ params }: Props) {
  const currency = await pageCurrency();
  const product = await getProduct((await params).slug, currency);
  if (!product) notFound();
  return (
    <>
      <TeaserSlot type="banner" />
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <Link href="/">Home</Link>
          </li>
          <li>
            <Link href={`/category/${product.category.slug}`}>{product.category.name}</Link>
          </li>
          <li aria-current="page">{product.name}</li>
        </ol>
      </nav>
      <article className="product">
        {/* biome-ignore lint/performance/noImgElement: local SVGs need no optimisation */}
        <img
          src={product.image}
          alt={product.name}
          width={480}
          height={360}
          fetchPriority="high"
          className="product__image"
        />
        <div className="product__info">
          <h1>{product.name}</h1>
          <p className="product__price" data-testid="product-price">
            <Money cents={product.price + product.tax} currency={currency} />
          </p>
          <ProductPriceWithTradeIn
            price={product.price + product.tax}
            currency={currency}
            delivery={deliveryShown(DEFAULT_SHIPPING_METHOD, currency)}
          />
          <p className="muted">
            Includes <Money cents={product.tax} currency={currency} /> VAT. Free returns within 30
            days.
          </p>
          <p>{product.description}</p>
          <AddToCartForm productId={product.id} choices={QUANTITY_CHOICES} />
          <TeaserSlot type="product-widget" />
        </div>
      </article>
    </>
  );
}
