import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { pageCurrency } from "@/lib/session/page-visitor";
import { getCategory, listProducts } from "@/lib/shop/catalog";
import { ProductGrid } from "@/lib/ui/product-card";
import { TeaserSlot } from "@/lib/ui/teaser-slot";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const category = await getCategory((await params).slug);
  return { title: category?.name ?? "Not found" };
}

export default async function CategoryPage({ params }: Props) {
  const category = await getCategory((await params).slug);
  if (!category) notFound();
  const currency = await pageCurrency();
  const products = await listProducts(currency, { categorySlug: category.slug });
  return (
    <>
      <TeaserSlot type="banner" />
      <h1>{category.name}</h1>
      <ProductGrid products={products} />
    </>
  );
}
