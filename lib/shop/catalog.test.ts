import { afterEach, describe, expect, it, vi } from "vitest";
import { setUpTestDb } from "@/test-support/test-db";
import {
  CATALOG_TTL_MS,
  catalogPageAddress,
  catalogVersion,
  getProduct,
  isCatalogPagePath,
  listCategories,
  listProducts,
  searchQueryOf,
} from "./catalog";

const shop = setUpTestDb();

// The catalog is served from a snapshot read again after CATALOG_TTL_MS: each test starts on a
// clock past any snapshot an earlier test left, and moves only the Date clock (Prisma's timers
// keep running).
let clock = Date.now();
function moveClockPastSnapshot() {
  clock += CATALOG_TTL_MS + 1;
  vi.setSystemTime(clock);
}
afterEach(() => {
  vi.useRealTimers();
});
function freshCatalog() {
  vi.useFakeTimers({ toFake: ["Date"] });
  moveClockPastSnapshot();
}

describe("catalog search", () => {
  it("finds products by name or description, case-insensitively", async () => {
    freshCatalog();
    expect((await listProducts("EUR", { query: "phone" })).map((p) => p.slug)).toEqual(["phone"]);
    expect((await listProducts("EUR", { query: "ABOUT BUDS" })).map((p) => p.slug)).toEqual([
      "buds",
    ]);
  });

  it("treats % and _ literally, not as wildcards", async () => {
    freshCatalog();
    expect(await listProducts("EUR", { query: "%" })).toEqual([]);
    expect(await listProducts("EUR", { query: "_" })).toEqual([]);
    expect(await listProducts("EUR", { query: "b_ds" })).toEqual([]);
    expect(await listProducts("EUR", { query: "p%e" })).toEqual([]);
    await shop.db.product.update({
      where: { slug: "buds" },
      data: { description: "100% wireless, model_b" },
    });
    moveClockPastSnapshot();
    expect((await listProducts("EUR", { query: "100%" })).map((p) => p.slug)).toEqual(["buds"]);
    expect((await listProducts("EUR", { query: "l_b" })).map((p) => p.slug)).toEqual(["buds"]);
  });
});

describe("catalog snapshot", () => {
  it("serves one read until it is CATALOG_TTL_MS old, then shows a change", async () => {
    freshCatalog();
    const before = await getProduct("phone", "GBP");
    expect(before?.price).toBeGreaterThan(0);
    await shop.db.productPrice.update({
      where: { productId_currency: { productId: before?.id ?? "", currency: "GBP" } },
      data: { price: 12345 },
    });
    await shop.db.category.update({ where: { slug: "phones" }, data: { name: "Mobiles" } });
    // Within the snapshot's life: the read the page made a moment ago.
    vi.setSystemTime(clock + CATALOG_TTL_MS - 1);
    expect((await getProduct("phone", "GBP"))?.price).toBe(before?.price);
    expect((await listCategories()).map((c) => c.name)).toContain("Phones");
    // Past it: the database's catalog, on this instance as on every other.
    moveClockPastSnapshot();
    expect((await getProduct("phone", "GBP"))?.price).toBe(12345);
    expect((await listCategories()).map((c) => c.name)).toContain("Mobiles");
    expect((await getProduct("phone", "EUR"))?.category.name).toBe("Mobiles");
  });

  it("reads the catalog once for many requests at the same moment", async () => {
    freshCatalog();
    const reads = vi.spyOn(shop.db.product, "findMany");
    const pages = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 ? getProduct("buds", "EUR") : listProducts("EUR", { categorySlug: "phones" }),
      ),
    );
    expect(reads).toHaveBeenCalledTimes(1);
    expect(pages[1]).toMatchObject({ slug: "buds" });
    expect((pages[0] as { slug: string }[]).map((p) => p.slug)).toContain("phone");
    reads.mockRestore();
  });

  it("an unknown product or category is absent, not an error", async () => {
    freshCatalog();
    expect(await getProduct("no-such-thing", "EUR")).toBeNull();
    expect(await listProducts("EUR", { categorySlug: "no-such-category" })).toEqual([]);
  });
});

describe("catalog pages and version", () => {
  it("knows home, its categories and products as catalog pages, and nothing else", async () => {
    freshCatalog();
    for (const path of ["/", "/category/phones", "/products/buds"]) {
      expect(await isCatalogPagePath(path), path).toBe(true);
    }
    for (const path of [
      "/category/nope",
      "/products/nope",
      "/products/buds/",
      "/products/Buds",
      "/products/buds.json",
      "/search",
      "/cart",
      "/account",
      "/products/",
      `/products/${"a".repeat(101)}`,
    ]) {
      expect(await isCatalogPagePath(path), path).toBe(false);
    }
  });

  it("gives a stored page's address to catalog pages without a query and to searches as the search page reads them", async () => {
    freshCatalog();
    const address = (url: string) => {
      const parsed = new URL(url, "http://shop.test");
      return catalogPageAddress(parsed.pathname, parsed.searchParams);
    };
    expect(await address("/")).toBe("/");
    expect(await address("/products/buds")).toBe("/products/buds");
    expect(await address("/search")).toBe("/search");
    expect(await address("/search?q=")).toBe("/search");
    expect(await address("/search?q=Buds")).toBe("/search?q=Buds");
    expect(await address("/search?q=wireless+buds")).toBe("/search?q=wireless%20buds");
    expect(await address("/search?q=%C3%A9%26%3C")).toBe("/search?q=%C3%A9%26%3C");
    expect(await address(`/search?q=${"a".repeat(100)}`)).toBe(`/search?q=${"a".repeat(100)}`);
    for (const url of [
      "/products/buds?from=mail",
      "/?q=buds",
      "/products/nope",
      "/search?q=buds&page=2",
      "/search?page=2",
      "/search?q=a&q=b",
      // Not what the search box would show: the page trims and cuts it.
      "/search?q=+buds",
      `/search?q=${"a".repeat(101)}`,
      // Cut inside a character.
      `/search?q=${"a".repeat(99)}%F0%9F%98%80`,
      "/search/",
      "/cart",
    ]) {
      expect(await address(url), url).toBeNull();
    }
    expect(searchQueryOf("  Buds ")).toBe("Buds");
    expect(searchQueryOf(["a", "b"])).toBe("");
    expect(searchQueryOf(undefined)).toBe("");
  });

  it("has a new version when a price, a name or a category changes, the same one otherwise", async () => {
    freshCatalog();
    const first = await catalogVersion();
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    moveClockPastSnapshot();
    expect(await catalogVersion()).toBe(first);
    const phone = await getProduct("phone", "EUR");
    await shop.db.productPrice.update({
      where: { productId_currency: { productId: phone?.id ?? "", currency: "EUR" } },
      data: { price: (phone?.price ?? 0) + 1 },
    });
    moveClockPastSnapshot();
    const second = await catalogVersion();
    expect(second).not.toBe(first);
    await shop.db.category.update({ where: { slug: "phones" }, data: { name: "Handsets" } });
    moveClockPastSnapshot();
    expect(await catalogVersion()).not.toBe(second);
  });
});
