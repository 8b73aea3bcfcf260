// The catalog's stored pages (docs/decisions/catalog-rendering.md): home, every category and
// every product are served as a page rendered once for everyone in a currency, under a script
// policy of that page's own inline scripts' hashes; what is one shopper's (cart count, logged in
// or not) comes to the browser afterwards. Checked as a browser sees it: the policy on the
// response, every inline script in the page against it, the browser's own policy violation
// events, hydration, and two shoppers side by side.
import { createHash, createHmac, randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import Database from "better-sqlite3";
import { formatMoney } from "../lib/shop/money";
import { CATEGORIES, PRODUCTS } from "../prisma/catalog-data";
import { addToCart, cartCount } from "./fixtures";
import { expect, test } from "./support/fixtures";
import { advanceShopClock } from "./support/shop-clock";
import { sessionSecret } from "./support/shop-session";
import { STACK } from "./support/stack";

const CATALOG_PAGES = [
  "/",
  ...CATEGORIES.map((c) => `/category/${c.slug}`),
  ...PRODUCTS.map((p) => `/products/${p.slug}`),
];

/** The stored page's header: no count and no "My account" until the browser asks. */
const EMPTY_COUNT = '<span class="cart-link__count"></span>';

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

function scriptSrc(response: { headers(): Record<string, string> } | null): string {
  const policy = response?.headers()["content-security-policy"] ?? "";
  return policy.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
}

/** Every policy violation the browser reports on this page, from its first script on. */
async function watchViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { policyViolations: string[] }).policyViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
    });
  });
}

const violations = (page: Page) =>
  page.evaluate(() => (window as unknown as { policyViolations: string[] }).policyViolations);

/** What every stored page shows the browser: its hash policy allows each inline script it has,
 *  nothing is blocked, and it hydrates (the header's count is the page's own code's). */
async function expectStoredPage(
  page: Page,
  response: Awaited<ReturnType<Page["goto"]>>,
  path: string,
  count: string,
): Promise<void> {
  const scripts = scriptSrc(response);
  expect(scripts, path).toMatch(/^\s*script-src 'self'( 'sha256-[A-Za-z0-9+/]+={0,2}')+ \S+$/);
  expect(scripts, path).not.toMatch(/nonce|unsafe|strict-dynamic/);
  expect(await response?.text(), path).toContain(EMPTY_COUNT);
  // Hydrated: the header's count is filled by the page's own code once it runs.
  await expect(await cartCount(page), path).toHaveText(count);
  // The build check, from the browser's side: every inline script of the page is allowed by
  // its hash, so nothing of Next's bootstrap is blocked.
  const inline = await page.evaluate(() =>
    [...document.querySelectorAll("script:not([src])")].map((s) => s.textContent ?? ""),
  );
  expect(inline.length, path).toBeGreaterThan(0);
  for (const text of inline) expect(scripts, path).toContain(`'sha256-${sha256(text)}'`);
  expect(await violations(page), path).toEqual([]);
}

test("every catalog page is served stored, under its own inline scripts' hashes: no policy violation, and it hydrates", async ({
  page,
}) => {
  await watchViolations(page);
  for (const path of CATALOG_PAGES) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expectStoredPage(page, response, path, "0");
  }
});

test("a search is served stored from its second request, under its own hashes; any other query is rendered per request", async ({
  page,
  browser,
}) => {
  await watchViolations(page);
  await addToCart(page, "echo-buds-pro");
  // The shopper types a search in the header; the form sends it as a plain GET.
  const search = async (text: string) => {
    await page.locator("#site-search").fill(text);
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/search");
    await page.locator("#site-search").press("Enter");
    return answered;
  };
  // A search no one asked for before: rendered per request the first time, stored the second.
  const never = `no such thing ${randomUUID()}`;
  expect(scriptSrc(await search(never))).toContain("'nonce-");
  await expect(page.getByTestId("no-results")).toBeVisible();
  const again = await search(never);
  await expect(page.getByTestId("no-results")).toContainText(never);
  await expectStoredPage(page, again, never, "1");

  await search("Aurora");
  const stored = await search("Aurora");
  await expectStoredPage(page, stored, "Aurora", "1");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Results for “Aurora”");
  await expect(page.getByRole("link", { name: /Aurora X1/ }).first()).toBeVisible();
  // The search box keeps the query, as on a page rendered per request.
  await expect(page.locator("#site-search")).toHaveValue("Aurora");
  // The stored bytes are nobody's: the same for a shopper with an empty cart.
  const other = await (await browser.newContext()).newPage();
  expect(await (await other.goto("/search?q=Aurora"))?.text()).toBe(await stored.text());

  await page.goto("/search");
  await expectStoredPage(page, await page.goto("/search"), "/search", "1");

  // Anything but the search box's own one `q`: rendered per request, however often asked.
  for (const [path, heading] of <[string, string][]>[
    ["/search?q=Aurora&utm_source=mail", "Results for “Aurora”"],
    // Not one search: the page runs none.
    ["/search?q=Aurora&q=Echo", "Search"],
    ["/search?q=%20Aurora", "Results for “Aurora”"],
  ]) {
    await page.goto(path);
    const response = await page.goto(path);
    expect(scriptSrc(response), path).toContain("'nonce-");
    await expect(page.getByRole("heading", { level: 1 }), path).toHaveText(heading);
  }
});

test("two shoppers on the same stored page each see their own cart and currency, and the page carries neither", async ({
  page: alice,
  browser,
}) => {
  await addToCart(alice, "aurora-x1");
  await expect(await cartCount(alice)).toHaveText("1");
  await alice.getByRole("button", { name: "£ GBP" }).click();
  await expect(alice.getByTestId("product-price")).toContainText("£");

  const bob = await (await browser.newContext()).newPage();
  const bobsPage = await bob.goto("/products/aurora-x1");
  await expect(await cartCount(bob)).toHaveText("0");
  await expect(bob.getByTestId("product-price")).toContainText("€");
  await expect(bob.getByRole("banner").getByRole("link", { name: "Log in" })).toBeVisible();

  const alicesPage = await alice.goto("/products/aurora-x1");
  await expect(await cartCount(alice)).toHaveText("1");
  await expect(alice.getByTestId("product-price")).toContainText("£");

  // A third shopper in each currency is served the very same bytes: nothing in them is Alice's
  // or Bob's.
  const carol = await (await browser.newContext()).newPage();
  expect(await (await carol.goto("/products/aurora-x1"))?.text()).toBe(await bobsPage?.text());
  await carol.getByRole("button", { name: "£ GBP" }).click();
  await expect(carol.getByTestId("product-price")).toContainText("£");
  expect(await (await carol.goto("/products/aurora-x1"))?.text()).toBe(await alicesPage?.text());
  for (const html of [await bobsPage?.text(), await alicesPage?.text()]) {
    expect(html).toContain(EMPTY_COUNT);
  }
});

test("a catalog render asked for from outside is a shopper's request; a real one holds no shopper's data", async ({
  page,
}) => {
  await addToCart(page, "aurora-x1");
  await expect(await cartCount(page)).toHaveText("1");
  const forged = { "x-catalog-render": "0".repeat(64), "x-catalog-currency": "GBP" };
  // The stored page in the shopper's own currency, not the forged one.
  const stored = await page.request.get("/products/aurora-x1", { headers: forged });
  expect(scriptSrc(stored)).toContain("'sha256-");
  expect(await stored.text()).toContain('data-testid="product-price"><span class="money">€');
  // Rendered per request for this shopper (a query string is never stored): their count, a nonce.
  const dynamic = await page.request.get("/products/aurora-x1?from=mail", { headers: forged });
  expect(scriptSrc(dynamic)).toContain("'nonce-");
  expect(await dynamic.text()).toContain('<span class="cart-link__count">1</span>');
  // Even with the shop's own token, the shopper's cookie is not read: the render is nobody's.
  const token = createHmac("sha256", sessionSecret()).update("catalog-render").digest("hex");
  const render = await page.request.get("/products/aurora-x1", {
    headers: { "x-catalog-render": token, "x-catalog-currency": "EUR" },
  });
  expect(await render.text()).toContain(EMPTY_COUNT);
  expect(await render.text()).toMatch(/data-catalog-version="[0-9a-f]{32}"/);
});

/** Sets a product's EUR price in the worker's database, as the seed or a catalog tool would. */
function setEuroPrice(slug: string, price: number): { price: number; tax: number } {
  const db = new Database(STACK.databaseFile);
  try {
    const row = db
      .prepare(
        `SELECT pp.price AS price, pp.tax AS tax FROM "ProductPrice" pp JOIN "Product" p ON p.id = pp.productId
         WHERE p.slug = ? AND pp.currency = 'EUR'`,
      )
      .get(slug) as { price: number; tax: number };
    db.prepare(
      `UPDATE "ProductPrice" SET price = ? WHERE currency = 'EUR'
       AND productId = (SELECT id FROM "Product" WHERE slug = ?)`,
    ).run(price, slug);
    return row;
  } finally {
    db.close();
  }
}

test("a catalog change is served once the catalog is read again: the new price, under the new page's hashes", async ({
  page,
}) => {
  await watchViolations(page);
  const path = "/products/vertex-14-air";
  // The snapshot lives 5 s of the shop's time from when it was last read, which a loaded machine
  // can spend between two visits: the clock is stopped and moved past the snapshot's life, so
  // the first visit reads the catalog again and the next ones are within its life, however slow.
  await advanceShopClock(6, { freeze: true });
  let shownBefore: string | null = null;
  try {
    const before = await page.goto(path);
    const bytesBefore = await before?.text();
    shownBefore = await page.getByTestId("product-price").textContent();
    const original = setEuroPrice("vertex-14-air", 111_100);
    try {
      // Within the snapshot's life the stored page stays as it was.
      const same = await page.goto(path);
      expect(await same?.text()).toBe(bytesBefore);
      // Past it (the shop's clock moved, not waited for): rendered again from the new catalog.
      await advanceShopClock(6);
      const after = await page.goto(path);
      await expect(page.getByTestId("product-price")).not.toHaveText(shownBefore ?? "");
      await expect(page.getByTestId("product-price")).toHaveText(
        formatMoney(111_100 + original.tax, "EUR"),
      );
      expect(scriptSrc(after)).toMatch(/'sha256-/);
      expect(scriptSrc(after)).not.toBe(scriptSrc(before));
      await expect(await cartCount(page)).toHaveText("0");
      expect(await violations(page)).toEqual([]);
    } finally {
      setEuroPrice("vertex-14-air", original.price);
      await advanceShopClock(6);
    }
  } finally {
    await advanceShopClock(0, { freeze: false });
  }
  await page.goto(path);
  await expect(page.getByTestId("product-price")).toHaveText(shownBefore ?? "");
});
