import { createHash } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import type { CatalogRenderVariant } from "./catalog-render";
import {
  catalogPageStore,
  inlineScriptHashes,
  RENDER_RETRY_AFTER_MS,
  RENDER_TIMEOUT_MS,
  renderedCatalogVersion,
} from "./prerendered-catalog";

const sha = (text: string) =>
  `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

const V1 = "1".repeat(32);
const V2 = "2".repeat(32);
const EUR: CatalogRenderVariant = { currency: "EUR", inspector: null };
const GBP: CatalogRenderVariant = { currency: "GBP", inspector: null };

function page(version: string, script = 'self.__next_f.push([1,"x"])') {
  return `<!DOCTYPE html><html><body><div class="shop-frame" data-catalog-version="${version}"></div><script>${script}</script></body></html>`;
}

describe("inline script hashes", () => {
  it("hash every inline script's exact text, and no script with a src", () => {
    const html = [
      '<script src="/_next/static/chunks/a.js" async=""></script>',
      "<script>(self.__next_f=self.__next_f||[]).push([0])</script>",
      '<script id="_R_">self.__next_f.push([1,"é \\u003c/script>"])</script>',
      "<script>(self.__next_f=self.__next_f||[]).push([0])</script>",
      "<SCRIPT>upper()</SCRIPT >",
      "<script></script>",
    ].join("");
    expect(inlineScriptHashes(html)).toEqual([
      sha("(self.__next_f=self.__next_f||[]).push([0])"),
      sha('self.__next_f.push([1,"é \\u003c/script>"])'),
      sha("upper()"),
      sha(""),
    ]);
  });

  it("are none for a page without inline scripts", () => {
    expect(inlineScriptHashes('<p>no <b>scripts</b></p><script src="/a.js"></script>')).toEqual([]);
  });

  it("read the catalog version a render names, and nothing that is not one", () => {
    expect(renderedCatalogVersion(page(V1))).toBe(V1);
    expect(renderedCatalogVersion('<div data-catalog-version="abc"></div>')).toBeNull();
    expect(renderedCatalogVersion("<div></div>")).toBeNull();
  });
});

describe("the catalog page store", () => {
  it("renders a page once per variant and version, and shares one render between requests", async () => {
    const render = vi.fn(async (_path: string, variant: CatalogRenderVariant) =>
      page(V1, `price("${variant.currency}")`),
    );
    const store = catalogPageStore(render);
    const [a, b] = await Promise.all([
      store.page("/products/phone", EUR, V1),
      store.page("/products/phone", EUR, V1),
    ]);
    expect(render).toHaveBeenCalledTimes(1);
    expect(a).toBe(b);
    expect(a?.scriptHashes).toEqual([sha('price("EUR")')]);
    expect(await store.page("/products/phone", EUR, V1)).toBe(a);
    const pound = await store.page("/products/phone", GBP, V1);
    expect(pound?.scriptHashes).toEqual([sha('price("GBP")')]);
    await store.page("/products/phone", { currency: "EUR", inspector: "open" }, V1);
    await store.page("/products/buds", EUR, V1);
    expect(render).toHaveBeenCalledTimes(4);
  });

  it("answers null to every request waiting on a render that never ends, once the render's time is up", async () => {
    vi.useFakeTimers();
    try {
      const render = vi.fn(() => new Promise<string | null>(() => {}));
      const store = catalogPageStore(render);
      const waiting = [store.page("/", EUR, V1), store.page("/", EUR, V1)];
      let answered = 0;
      for (const request of waiting) request.then(() => answered++);
      await vi.advanceTimersByTimeAsync(RENDER_TIMEOUT_MS - 1);
      expect(answered).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(await Promise.all(waiting)).toEqual([null, null]);
      expect(render).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("renders again, with the new scripts' hashes, once the catalog has another version", async () => {
    let version = V1;
    const render = vi.fn(async () => page(version, `catalog("${version}")`));
    const store = catalogPageStore(render);
    const first = await store.page("/", EUR, V1);
    version = V2;
    const second = await store.page("/", EUR, V2);
    expect(render).toHaveBeenCalledTimes(2);
    expect(new TextDecoder().decode(second?.body)).toContain(V2);
    expect(second?.scriptHashes).toEqual([sha(`catalog("${V2}")`)]);
    expect(second?.scriptHashes).not.toEqual(first?.scriptHashes);
    expect(await store.page("/", EUR, V2)).toBe(second);
    expect(render).toHaveBeenCalledTimes(2);
  });

  it("serves a render made from another version once, and keeps it not", async () => {
    // Another instance, whose snapshot is older, answered the render.
    const render = vi.fn(async () => page(V1));
    const store = catalogPageStore(render);
    const served = await store.page("/", EUR, V2);
    expect(served?.version).toBe(V1);
    await store.page("/", EUR, V2);
    expect(render).toHaveBeenCalledTimes(2);
  });

  it("has no page when the render failed or names no catalog version, and tries again 30 s later", async () => {
    let clock = 0;
    const answers = [null, "<html><script>x()</script></html>", page(V1), page(V1)];
    const render = vi.fn(async () => answers.shift() ?? null);
    const store = catalogPageStore(render, { now: () => clock });
    expect(await store.page("/", EUR, V1)).toBeNull();
    // Meanwhile the page is served per request, without waiting for another render.
    clock += RENDER_RETRY_AFTER_MS - 1;
    expect(await store.page("/", EUR, V1)).toBeNull();
    expect(render).toHaveBeenCalledTimes(1);
    clock += 1;
    expect(await store.page("/", EUR, V1)).toBeNull();
    expect(render).toHaveBeenCalledTimes(2);
    // Another page, or the next catalog version, is tried at once.
    expect((await store.page("/", GBP, V1))?.version).toBe(V1);
    clock += RENDER_RETRY_AFTER_MS;
    expect((await store.page("/", EUR, V1))?.version).toBe(V1);
    expect(render).toHaveBeenCalledTimes(4);
  });

  it("renders a page of a store that waits for a second request on that request, per variant and version", async () => {
    const render = vi.fn(async (address: string) => page(V1, `search(${JSON.stringify(address)})`));
    const store = catalogPageStore(render, { renderOnRequest: 2 });
    const address = "/search?q=aurora";
    // Asked once: served per request, nothing rendered.
    expect(await store.page(address, EUR, V1)).toBeNull();
    expect(await store.page("/search?q=echo", EUR, V1)).toBeNull();
    expect(await store.page(address, GBP, V1)).toBeNull();
    expect(render).not.toHaveBeenCalled();
    const kept = await store.page(address, EUR, V1);
    expect(render).toHaveBeenCalledTimes(1);
    expect(render).toHaveBeenCalledWith(address, EUR);
    expect(await store.page(address, EUR, V1)).toBe(kept);
    // A new catalog version counts its requests again.
    expect(await store.page(address, EUR, V2)).toBeNull();
    expect(render).toHaveBeenCalledTimes(1);
  });

  it("keeps at most its number of pages, the oldest kept going first, and counts requests within that bound", async () => {
    const render = vi.fn(async (address: string) => page(V1, `at(${JSON.stringify(address)})`));
    const store = catalogPageStore(render, { maxPages: 2, renderOnRequest: 2 });
    for (const q of ["a", "b", "c"]) {
      await store.page(`/search?q=${q}`, EUR, V1);
      await store.page(`/search?q=${q}`, EUR, V1);
    }
    expect(render).toHaveBeenCalledTimes(3);
    await store.page("/search?q=c", EUR, V1);
    await store.page("/search?q=b", EUR, V1);
    expect(render).toHaveBeenCalledTimes(3);
    // "a" went first; asked again it waits for its second request as a new one does.
    expect(await store.page("/search?q=a", EUR, V1)).toBeNull();
    expect(render).toHaveBeenCalledTimes(3);
    // Two requests of three other queries in between: the count of "a" is forgotten too.
    for (const q of ["x", "y", "z"]) await store.page(`/search?q=${q}`, GBP, V1);
    expect(await store.page("/search?q=a", EUR, V1)).toBeNull();
    expect(render).toHaveBeenCalledTimes(3);
  });
});
