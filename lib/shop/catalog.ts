import "server-only";
import { getDb, isPostgres } from "@/lib/db/client";
import type { Currency } from "./money";

/** A product page's absolute URL (the contract Cart item's `url`). */
export function productUrl(shopBaseUrl: string, slug: string): string {
  return `${shopBaseUrl.replace(/\/+$/, "")}/products/${encodeURIComponent(slug)}`;
}

export interface ProductView {
  id: string;
  slug: string;
  name: string;
  description: string;
  image: string;
  category: { slug: string; name: string };
  currency: Currency;
  /** unit price before tax, cents */
  price: number;
  /** unit tax, cents */
  tax: number;
}

/** A product as read from the database: its prices in every currency. */
type ProductRow = Omit<ProductView, "currency" | "price" | "tax"> & {
  prices: { currency: string; price: number; tax: number }[];
};

const productInclude = {
  category: { select: { slug: true, name: true } },
  prices: true,
} as const;

function toView(row: ProductRow, currency: Currency): ProductView {
  const price = row.prices.find((p) => p.currency === currency);
  if (!price) throw new Error(`Product ${row.slug} has no ${currency} price`);
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    image: row.image,
    category: row.category,
    currency,
    price: price.price,
    tax: price.tax,
  };
}

export async function listCategories() {
  return getDb().category.findMany({
    orderBy: { position: "asc" },
    select: { slug: true, name: true },
  });
}

export async function getCategory(slug: string) {
  return getDb().category.findUnique({ where: { slug }, select: { slug: true, name: true } });
}

export async function listProducts(
  currency: Currency,
  filter: { categorySlug?: string; query?: string } = {},
): Promise<ProductView[]> {
  const query = filter.query?.trim().slice(0, 100);
  const db = getDb();
  // SQLite's LIKE ignores ASCII case; PostgreSQL's needs the insensitive mode (which SQLite's
  // client does not know, hence the spread).
  const anyCase = isPostgres(db) ? { mode: "insensitive" as const } : {};
  const rows = await db.product.findMany({
    where: {
      ...(filter.categorySlug ? { category: { slug: filter.categorySlug } } : {}),
      ...(query
        ? {
            OR: [
              { name: { contains: query, ...anyCase } },
              { description: { contains: query, ...anyCase } },
            ],
          }
        : {}),
    },
    include: productInclude,
    orderBy: [{ category: { position: "asc" } }, { name: "asc" }],
  });
  // The database's LIKE reads % and _ as wildcards; what the shopper typed is text. Every literal
  // match is also a LIKE match, so keeping the literal ones gives exactly the literal matches.
  const needle = query?.toLowerCase();
  const literal = needle
    ? rows.filter(
        (row) =>
          row.name.toLowerCase().includes(needle) || row.description.toLowerCase().includes(needle),
      )
    : rows;
  return literal.map((row) => toView(row, currency));
}

export async function getProduct(slug: string, currency: Currency): Promise<ProductView | null> {
  const row = await getDb().product.findUnique({ where: { slug }, include: productInclude });
  return row ? toView(row, currency) : null;
}
