import type { Metadata } from "next";
import { CategoryLinks } from "@/lib/ui/category-links";
import { Link } from "@/lib/ui/link";

export const metadata: Metadata = { title: "Page not found" };

/** The shop's 404, with its header and footer and a way on. */
export default function ShopNotFound() {
  return (
    <div className="empty-state">
      <h1>Page not found</h1>
      <p>We could not find that page. It may have moved, or the address has a typo.</p>
      <CategoryLinks />
      <p>
        <Link href="/" className="button button--primary">
          Back to the shop
        </Link>
      </p>
    </div>
  );
}
