import { createHash } from "node:crypto";
import { type CatalogRenderVariant, catalogRenderHeaders } from "./catalog-render";

/**
 * The catalog's pages (home, category, product, and the search page per query) rendered once
 * per catalog version and variant (currency; the demo's inspector placement), kept, and served
 * to every shopper under a script policy of hashes instead of a nonce
 * (docs/decisions/catalog-rendering.md). A page is rendered by the shop asking itself for it as
 * a catalog render (lib/http/catalog-render.ts: no cookies, no session, no nonce), and stored
 * with the SHA-256 of each of its inline scripts, taken from that one render: the policy it is
 * served with allows exactly those scripts, the shop's own files and the SDK's origin.
 *
 * A page is kept for the catalog version it was rendered from (`data-catalog-version`, written
 * by the shop layout in a catalog render) and rendered again once the instance's catalog
 * snapshot has another version (lib/shop/catalog.ts: read again every 5 s), so a catalog change
 * reaches the stored pages of every instance as it reaches their snapshots. What is kept here
 * is derived from the database, the same for every instance, and bounded: by the catalog's size,
 * and for searches by the store's size and the searches asked for more than once.
 */

export interface StoredCatalogPage {
  /** the page's HTML as UTF-8, encoded once */
  body: Uint8Array<ArrayBuffer>;
  /** CSP hash sources, `'sha256-…'`, one per distinct inline script of `html` */
  scriptHashes: string[];
  /** the catalog version the page was rendered from */
  version: string;
}

/** Most pages kept per store by default: every catalog page in both currencies, with room to
 *  spare. */
const MAX_STORED_PAGES = 2_000;
/** A rendered page larger than this is served by the dynamic path and never kept. */
const MAX_PAGE_BYTES = 2_000_000;
/** How long a catalog render may take before the page is served per request. */
export const RENDER_TIMEOUT_MS = 10_000;
/** After a render that failed, that page is served per request for this long before the next
 *  try: a shop that cannot reach its own address must not make every visit wait for it. */
export const RENDER_RETRY_AFTER_MS = 30_000;

/**
 * The hash sources of every inline script in a page (a `<script>` without `src`), over its
 * exact text as CSP hashes it. Next.js and React escape `<` inside their inline scripts and
 * every text and attribute they render, so no script ends before its `</script>`.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\bsrc\s*=/i.test(match[1] ?? "")) continue;
    const digest = createHash("sha256")
      .update(match[2] ?? "", "utf8")
      .digest("base64");
    hashes.add(`'sha256-${digest}'`);
  }
  return [...hashes];
}

/** The catalog version a catalog render names, or null. */
export function renderedCatalogVersion(html: string): string | null {
  return /\sdata-catalog-version="([0-9a-f]{32})"/.exec(html)?.[1] ?? null;
}

export interface CatalogPageStore {
  /**
   * The stored page for this address (lib/shop/catalog.ts: catalogPageAddress) and variant,
   * rendered now if there is none for `version`;
   * null when it cannot be rendered (then the page is served dynamically, under a nonce).
   */
  page(
    address: string,
    variant: CatalogRenderVariant,
    version: string,
  ): Promise<StoredCatalogPage | null>;
}

export interface CatalogPageStoreOptions {
  /** the clock, for retrying a failed render */
  now?: () => number;
  /** most pages kept (the oldest kept goes first) */
  maxPages?: number;
  /**
   * How many requests of a page (a variant, a catalog version) come before it is rendered to be
   * kept; the earlier ones get null (served per request). 1 for the catalog's own pages. The
   * search pages, one per query, use 2: a query asked once costs what a page rendered per request
   * costs and nothing more, so a stream of distinct queries cannot make the shop render twice.
   */
  renderOnRequest?: number;
}

/**
 * `render` asks the shop for a catalog render of the page: in the shop, a request to its own
 * base URL (`catalogRenderFetch`). Concurrent requests for the same page share one render; a
 * page whose render failed is not tried again for RENDER_RETRY_AFTER_MS.
 */
export function catalogPageStore(
  render: (address: string, variant: CatalogRenderVariant) => Promise<string | null>,
  options: CatalogPageStoreOptions = {},
): CatalogPageStore {
  const now = options.now ?? Date.now;
  const maxPages = options.maxPages ?? MAX_STORED_PAGES;
  const renderOnRequest = options.renderOnRequest ?? 1;
  const stored = new Map<string, StoredCatalogPage>();
  const rendering = new Map<string, Promise<StoredCatalogPage | null>>();
  /** when a page's last render failed, by key and version (bounded as `stored` is) */
  const failedAt = new Map<string, number>();
  /** requests of pages not rendered yet, by key and version (bounded as `stored` is) */
  const asked = new Map<string, number>();

  /** Sets a key in a map that keeps at most `maxPages` keys, the oldest set going first. */
  function setBounded<T>(map: Map<string, T>, key: string, value: T): void {
    map.delete(key);
    map.set(key, value);
    if (map.size > maxPages) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
  }

  async function renderAndKeep(
    key: string,
    address: string,
    variant: CatalogRenderVariant,
    version: string,
  ): Promise<StoredCatalogPage | null> {
    const html = await render(address, variant);
    const renderedFrom = html === null ? null : renderedCatalogVersion(html);
    if (html === null || !renderedFrom) {
      setBounded(failedAt, `${key} ${version}`, now());
      return null;
    }
    failedAt.delete(`${key} ${version}`);
    const page = {
      body: new TextEncoder().encode(html),
      scriptHashes: inlineScriptHashes(html),
      version: renderedFrom,
    };
    // Kept only when made from the version this instance serves; a render from another
    // instance's older snapshot is served once and not kept.
    if (renderedFrom === version) setBounded(stored, key, page);
    return page;
  }

  return {
    async page(address, variant, version) {
      const key = `${variant.currency} ${variant.inspector ?? "-"} ${address}`;
      const kept = stored.get(key);
      if (kept?.version === version) return kept;
      const attempt = `${key} ${version}`;
      const inFlight = rendering.get(attempt);
      if (inFlight) return withinRenderTime(inFlight);
      const failed = failedAt.get(attempt);
      if (failed !== undefined && now() - failed < RENDER_RETRY_AFTER_MS) return null;
      if (renderOnRequest > 1) {
        const requests = (asked.get(attempt) ?? 0) + 1;
        if (requests < renderOnRequest) {
          setBounded(asked, attempt, requests);
          return null;
        }
        asked.delete(attempt);
      }
      const started = renderAndKeep(key, address, variant, version).finally(() =>
        rendering.delete(attempt),
      );
      rendering.set(attempt, started);
      return withinRenderTime(started);
    },
  };
}

/**
 * The render's page, or null once RENDER_TIMEOUT_MS passed first: a request waiting on a render
 * is then served per request. A plain timer, not the render's own time limit alone: a fetch whose
 * AbortSignal.timeout never fired was seen pending for minutes (docs/decisions/test-graph.md,
 * "The stacks' start"), and every request of that page would have waited with it.
 */
function withinRenderTime(
  render: Promise<StoredCatalogPage | null>,
): Promise<StoredCatalogPage | null> {
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    deadline = setTimeout(() => resolve(null), RENDER_TIMEOUT_MS);
  });
  return Promise.race([render, late]).finally(() => clearTimeout(deadline));
}

/**
 * A catalog render of `address` from the shop at `baseUrl`: its HTML when it answered 200 with
 * HTML, else null. `baseUrl` is the shop's own configured address, never a request's Host.
 */
export async function catalogRenderFetch(
  baseUrl: string,
  sessionSecret: string,
  address: string,
  variant: CatalogRenderVariant,
): Promise<string | null> {
  // Aborted by a plain timer (see withinRenderTime), which also bounds reading the body.
  const abort = new AbortController();
  const deadline = setTimeout(() => abort.abort(), RENDER_TIMEOUT_MS);
  try {
    const response = await fetch(`${baseUrl}${address}`, {
      headers: { accept: "text/html", ...catalogRenderHeaders(sessionSecret, variant) },
      redirect: "manual",
      cache: "no-store",
      signal: abort.signal,
    });
    const type = response.headers.get("content-type") ?? "";
    if (response.status !== 200 || !type.startsWith("text/html")) {
      await response.body?.cancel();
      return null;
    }
    const html = await response.text();
    return html.length > MAX_PAGE_BYTES ? null : html;
  } catch {
    return null;
  } finally {
    clearTimeout(deadline);
  }
}
