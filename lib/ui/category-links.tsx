import Link from "next/link";
import { listCategories } from "@/lib/shop/catalog";

/** The catalog's categories as a row of links: the way on from an empty state. */
export async function CategoryLinks() {
  const categories = await listCategories();
  return (
    <ul className="empty-state__links">
      {categories.map((c) => (
        <li key={c.slug}>
          <Link href={`/category/${c.slug}`}>{c.name}</Link>
        </li>
      ))}
    </ul>
  );
}
