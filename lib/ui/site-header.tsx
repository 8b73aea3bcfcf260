import type { ShopSession } from "@/lib/session/session";
import { sessionCurrency } from "@/lib/session/session-data";
import { pageCartCount } from "@/lib/shop/cart";
import { listCategories } from "@/lib/shop/catalog";
import { Link } from "@/lib/ui/link";
import { CurrencySwitcher } from "./currency-switcher";
import { SearchField } from "./search-field";

export async function SiteHeader({ session }: { session: ShopSession }) {
  const [categories, count] = await Promise.all([
    listCategories(),
    session.sessionId ? pageCartCount(session.sessionId) : 0,
  ]);
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
          <CurrencySwitcher current={sessionCurrency(session)} />
          <Link href={session.customerId ? "/account" : "/account/login"}>
            {session.customerId ? "My account" : "Log in"}
          </Link>
          <Link href="/cart" className="cart-link">
            Cart <span className="cart-link__count">{count}</span>
            <span className="visually-hidden"> {count === 1 ? "item" : "items"}</span>
          </Link>
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
