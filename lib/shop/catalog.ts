import "server-only";
import { createHash } from "node:crypto";
import { type Db, getDb } from "@/lib/db/client";
import { shopNow } from "@/lib/service-adapter/shop-clock";
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

/**
 * How long an instance serves its catalog snapshot before it reads the database again. The
 * catalog changes only when the seed runs (the back office does not edit it), so every catalog
 * page reads one in-memory snapshot rather than querying per request; a change reaches every
 * instance within this time, with no message between instances (docs/decisions/catalog-rendering.md).
 * Amounts that are charged never come from here: the cart reads its prices from the database.
 */
export const CATALOG_TTL_MS = 5_000;

interface CatalogSnapshot {
  /** in their navigation order */
  categories: { slug: string; name: string }[];
  /** in listing order: by category position, then name */
  products: ProductRow[];
  /** a digest of everything above: equal versions render equal catalog pages */
  version: string;
  readAt: number;
}

interface SnapshotSlot {
  snapshot?: CatalogSnapshot;
  reading?: Promise<CatalogSnapshot>;
}

/** One snapshot per database client (a test's own database has its own). Where Next bundles
 *  this module twice in one process, each copy keeps its own: a second read, never a wrong one. */
const snapshotSlots = new WeakMap<object, SnapshotSlot>();

async function readCatalog(db: Db, now: number): Promise<CatalogSnapshot> {
  // One consistent read of the whole catalog (a dozen products, a few categories).
  const [categories, products] = await db.$transaction([
    db.category.findMany({ orderBy: { position: "asc" }, select: { slug: true, name: true } }),
    db.product.findMany({
      include: productInclude,
      orderBy: [{ category: { position: "asc" } }, { name: "asc" }],
    }),
  ]);
  const version = createHash("sha256")
    .update(JSON.stringify([categories, products]))
    .digest("hex")
    .slice(0, 32);
  return { categories, products, version, readAt: now };
}

/** The catalog as this instance last read it, read again once older than CATALOG_TTL_MS;
 *  concurrent requests share one read. */
async function catalogSnapshot(): Promise<CatalogSnapshot> {
  const db = getDb();
  let slot = snapshotSlots.get(db);
  if (!slot) {
    slot = {};
    snapshotSlots.set(db, slot);
  }
  // The shop's clock: real time, which the browser suite moves forward in a test build.
  const now = shopNow().getTime();
  if (slot.snapshot && now - slot.snapshot.readAt < CATALOG_TTL_MS) return slot.snapshot;
  const current = slot;
  current.reading ??= readCatalog(db, now)
    .then((snapshot) => {
      current.snapshot = snapshot;
      return snapshot;
    })
    .finally(() => {
      current.reading = undefined;
    });
  return current.reading;
}

/** The catalog's version as this instance last read it (a digest of its content): what a stored
 *  catalog page was rendered from (lib/http/prerendered-catalog.ts). */
export async function catalogVersion(): Promise<string> {
  return (await catalogSnapshot()).version;
}

/** Longest search the shop runs: the rest of what a shopper typed is ignored. */
const MAX_SEARCH_LENGTH = 100;

/** The search a `q` parameter asks for, as the search page runs and shows it. */
export function searchQueryOf(raw: unknown): string {
  return (typeof raw === "string" ? raw : "").trim().slice(0, MAX_SEARCH_LENGTH);
}

/**
 * The address of the catalog page a URL shows, for storing it (lib/http/prerendered-catalog.ts),
 * or null when it is not one: home, an existing category or product without a query, and the
 * search page with at most its one `q`, as the search page itself reads it (trimmed and cut,
 * so that the stored page's search box shows exactly what the URL holds). Any other query
 * (tracking, a repeated `q`) is rendered per request.
 */
export async function catalogPageAddress(
  pathname: string,
  searchParams: URLSearchParams,
): Promise<string | null> {
  if (pathname === "/search") {
    if (searchParams.size === 0) return "/search";
    const raw = searchParams.get("q");
    if (searchParams.size !== 1 || raw === null) return null;
    const query = searchQueryOf(raw);
    if (query !== raw) return null;
    // A decoded parameter is well-formed text, and uncut: it goes back into a URL as it is.
    return query === "" ? "/search" : `/search?q=${encodeURIComponent(query)}`;
  }
  if (searchParams.size > 0) return null;
  return (await isCatalogPagePath(pathname)) ? pathname : null;
}

/**
 * Whether a path is one of the catalog's own pages: home, an existing category or product. The
 * search page is one per query (catalogPageAddress).
 */
export async function isCatalogPagePath(pathname: string): Promise<boolean> {
  if (pathname === "/") return true;
  const match = /^\/(category|products)\/([a-z0-9-]{1,100})$/.exec(pathname);
  if (!match) return false;
  const snapshot = await catalogSnapshot();
  return match[1] === "category"
    ? snapshot.categories.some((c) => c.slug === match[2])
    : snapshot.products.some((p) => p.slug === match[2]);
}

export async function listCategories(): Promise<{ slug: string; name: string }[]> {
  return (await catalogSnapshot()).categories;
}

export async function getCategory(slug: string): Promise<{ slug: string; name: string } | null> {
  return (await catalogSnapshot()).categories.find((c) => c.slug === slug) ?? null;
}

/** Products in listing order, of one category or matching a search: the text the shopper
 *  typed, literally and in any case, in the name or the description. */
export async function listProducts(
  currency: Currency,
  filter: { categorySlug?: string; query?: string } = {},
): Promise<ProductView[]> {
  const needle = filter.query === undefined ? undefined : searchQueryOf(filter.query).toLowerCase();
  return (await catalogSnapshot()).products
    .filter((row) => !filter.categorySlug || row.category.slug === filter.categorySlug)
    .filter(
      (row) =>
        !needle ||
        row.name.toLowerCase().includes(needle) ||
        row.description.toLowerCase().includes(needle),
    )
    .map((row) => toView(row, currency));
}

export async function getProduct(slug: string, currency: Currency): Promise<ProductView | null> {
  const row = (await catalogSnapshot()).products.find((p) => p.slug === slug);
  return row ? toView(row, currency) : null;
}
