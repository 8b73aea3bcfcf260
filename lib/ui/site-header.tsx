import { listCategories } from "@/lib/shop/catalog";
import type { Currency } from "@/lib/shop/money";
import type { ShopperSummary } from "@/lib/shop/shopper-summary";
import { Link } from "@/lib/ui/link";
import { CurrencySwitcher } from "./currency-switcher";
import { SearchField } from "./search-field";
import { ShopperLinks } from "./shopper-links";

/** `shopper` is null on a stored catalog page: the browser then asks for it (ShopperLinks). */
export async function SiteHeader({
  currency,
  shopper,
}: {
  currency: Currency;
  shopper: ShopperSummary | null;
}) {
  const categories = await listCategories();
  return (
    <header className="site-header">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <div className="site-header__bar">
        <Link href="/" className="brand">
          Circuit &amp; Co.
        </Link>
        <search className="search">
          <form action="/search" className="search__form">
            <label htmlFor="site-search" className="visually-hidden">
              Search products
            </label>
            <SearchField />
            <button type="submit" className="button">
              Search
            </button>
          </form>
        </search>
        <div className="site-header__tools">
          <CurrencySwitcher current={currency} />
          <ShopperLinks shopper={shopper} />
        </div>
      </div>
      <nav aria-label="Categories" className="site-nav">
        <ul>
          {categories.map((c) => (
            <li key={c.slug}>
              <Link href={`/category/${c.slug}`}>{c.name}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
