import { listCategories } from "@/lib/shop/catalog";
import { Link } from "@/lib/ui/link";

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
