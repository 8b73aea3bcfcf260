import type { Metadata } from "next";
import Link from "next/link";
import { listCategories } from "@/lib/shop/catalog";

export const metadata: Metadata = { title: "Page not found" };

/** The shop's 404, with its header and footer and a way on. */
export default async function ShopNotFound() {
  const categories = await listCategories();
  return (
    <div className="empty-state">
      <h1>Page not found</h1>
      <p>We could not find that page. It may have moved, or the address has a typo.</p>
      <ul className="empty-state__links">
        {categories.map((c) => (
          <li key={c.slug}>
            <Link href={`/category/${c.slug}`}>{c.name}</Link>
          </li>
        ))}
      </ul>
      <p>
        <Link href="/" className="button button--primary">
          Back to the shop
        </Link>
      </p>
    </div>
  );
}
