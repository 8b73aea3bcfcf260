// The SDK's configuration errors and the rest of its public surface (contract: Front-end SDK,
// the configuration object and the methods; emulator/README.md "Browser SDK"):
//
// | what the page does                                   | the SDK must                                              |
// |------------------------------------------------------|-----------------------------------------------------------|
// | no `window.serviceConfiguration`, or one without a   | refuse at import, naming the three keys it needs          |
// | merchantId, browserCallbackBase or confirmUrl (or    |                                                           |
// | blank, or not a string)                              |                                                           |
// | values with spaces around them, a callback base      | read the plain values: the same merchant, the shop's      |
// | ending in slashes                                    | callbacks at `{base}/shopper_data`                        |
// | a teaser selector (`bannerCssSelector` …) that       | load and start as usual, adding no teaser (one that is    |
// | matches nothing, or is not CSS                       | not CSS said once in the console)                         |
// | a marker whose `data-target` matches nothing (or is  | leave it alone, with no error, and still fill the markers |
// | not CSS), or whose `data-type` is no teaser type     | added with it                                             |
// | `Service.ready`                                      | resolve once `service-ready` was dispatched               |
// | the unsubscribe `addReadyToPlaceOrderListener` gives | stop calling that listener; the others are still awaited  |
// | a call to the service unanswered at start-up, or     | give it up after 30 s (api.ts), saying in the console     |
// | answered and then stalled while its body is read     | which call and how long; start without a session          |
//
// The other methods are each reached by the suite's journeys: openValuation and openPayment
// (wizard, payment), updatePaymentSelected and paymentOptionDetailsFor (payment-option,
// strictness), hasActiveTradeIn (startup-teasers, wizard).
import type { Page } from "@playwright/test";
import { expect, ownMerchant, type Shop, test } from "./fixtures";

const REFUSAL = "window.serviceConfiguration needs merchantId, browserCallbackBase and confirmUrl";

/** The address the test page imports the SDK from (the other host of the emulator). */
function assetsOf(page: Page): Promise<string> {
  return page.evaluate(() => {
    const script = document.querySelector("script[type=module]")?.textContent ?? "";
    return /import\("([^"]+)"\)/.exec(script)?.[1] ?? "";
  });
}

test("a configuration without merchantId, browserCallbackBase or confirmUrl is refused at import, saying what it needs; selectors that match nothing, or are not CSS, are not an error", async ({
  shop,
  page,
}) => {
  await shop.open();
  const assets = await assetsOf(page);
  const teasers = await shop.teasers().count();
  const outcomes = await page.evaluate(
    async ({ assets }) => {
      const w = window as unknown as { serviceConfiguration?: Record<string, unknown> };
      const good = { ...w.serviceConfiguration };
      const without = (key: string) => {
        const copy = { ...good };
        delete copy[key];
        return copy;
      };
      const cases: [string, Record<string, unknown> | undefined][] = [
        ["none", undefined],
        ["empty", {}],
        ["no merchantId", without("merchantId")],
        ["no browserCallbackBase", without("browserCallbackBase")],
        ["no confirmUrl", without("confirmUrl")],
        ["blank merchantId", { ...good, merchantId: "  " }],
        ["merchantId not a string", { ...good, merchantId: 42 }],
        [
          "a selector that is not CSS",
          {
            merchantId: good.merchantId,
            browserCallbackBase: good.browserCallbackBase,
            confirmUrl: good.confirmUrl,
            cartSummaryCssSelector: "[[not css",
          },
        ],
        [
          "selectors matching nothing",
          {
            merchantId: good.merchantId,
            browserCallbackBase: good.browserCallbackBase,
            confirmUrl: good.confirmUrl,
            bannerCssSelector: ".matches-nothing",
            productWidgetCssSelector: "#matches-nothing",
          },
        ],
      ];
      const out: Record<string, string> = {};
      for (const [i, [name, config]] of cases.entries()) {
        if (config === undefined) delete w.serviceConfiguration;
        else w.serviceConfiguration = config;
        try {
          // A URL of its own per case: a module is evaluated once per URL.
          const module = await import(`${assets}?configuration-case=${i}`);
          await module.default.ready;
          out[name] = "started";
        } catch (error) {
          out[name] = `refused: ${(error as Error).message}`;
        }
      }
      w.serviceConfiguration = good;
      return out;
    },
    { assets },
  );
  expect(outcomes).toEqual({
    none: `refused: ${REFUSAL}`,
    empty: `refused: ${REFUSAL}`,
    "no merchantId": `refused: ${REFUSAL}`,
    "no browserCallbackBase": `refused: ${REFUSAL}`,
    "no confirmUrl": `refused: ${REFUSAL}`,
    "blank merchantId": `refused: ${REFUSAL}`,
    "merchantId not a string": `refused: ${REFUSAL}`,
    "a selector that is not CSS": "started",
    "selectors matching nothing": "started",
  });
  expect(shop.warnings.join("\n")).toContain(
    "[service] the cart-summary teaser's selector is not a CSS selector, so no teaser goes there: [[not css",
  );
  // The instance whose selectors match nothing added no teaser (its markers were filled already).
  await expect(shop.teasers()).toHaveCount(teasers);
});

test("configuration values are read without the spaces around them, and the callback base without its trailing slashes: the SDK asks the shop and the service as with the plain values", async ({
  shop,
  page,
}) => {
  // A merchant's template often leaves a space or a line break around a value, or a slash at the
  // end of a base URL: the SDK reads the value itself (config.ts), never " m_…" as a merchant or
  // "…//shopper_data" as the shop's address.
  await shop.open();
  const assets = await assetsOf(page);
  const base = await page.evaluate(
    () =>
      (window as unknown as { serviceConfiguration: { browserCallbackBase: string } })
        .serviceConfiguration.browserCallbackBase,
  );
  const callbacks: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("shopper_data")) callbacks.push(request.url());
  });
  const [plain, padded] = await page.evaluate(
    async ({ assets }) => {
      type Sdk = { ready: Promise<void>; paymentOptionDetailsFor(p: string): Promise<unknown> };
      const w = window as unknown as { serviceConfiguration: Record<string, string>; Service: Sdk };
      const good = { ...w.serviceConfiguration };
      w.serviceConfiguration = {
        ...good,
        merchantId: `  ${good.merchantId}\n`,
        browserCallbackBase: ` ${good.browserCallbackBase}//`,
        confirmUrl: `\t${good.confirmUrl} `,
        products: ` ${good.products} `,
      };
      try {
        const sdk = ((await import(`${assets}?padded-configuration`)) as { default: Sdk }).default;
        await sdk.ready;
        return [
          await w.Service.paymentOptionDetailsFor("ep1"),
          await sdk.paymentOptionDetailsFor("ep1"),
        ];
      } finally {
        w.serviceConfiguration = good;
      }
    },
    { assets },
  );
  expect(padded).toEqual(plain);
  expect(callbacks.length).toBeGreaterThan(0);
  expect(callbacks.filter((url) => url !== `${base}/shopper_data`)).toEqual([]);
});

test("a marker whose data-target matches nothing, or whose data-type is no teaser, is left alone; the marker added with them is filled", async ({
  shop,
  page,
}) => {
  await shop.open();
  const banners = await shop.teasers("banner").count();
  await page.evaluate(() => {
    const slot = document.createElement("section");
    slot.innerHTML = [
      '<div class="service-teaser" data-type="banner" data-target="#no-such-slot" id="lost"></div>',
      '<div class="service-teaser" data-type="sidebar" id="unknown"></div>',
      '<div class="service-teaser" data-type="banner" data-target="[[not css" id="typo"></div>',
      '<div class="service-teaser" data-type="banner" id="late"></div>',
      // A marker the shop filled already (a heading, another type's teaser): its own content
      // is no banner teaser, so it gets one beside it.
      '<div class="service-teaser" data-type="banner" id="with-content"><h3>Trade in</h3><div data-service-teaser="product"></div></div>',
    ].join("");
    document.querySelector("main")?.append(slot);
  });
  await expect(page.locator("#late > [data-service-teaser=banner]")).toHaveCount(1);
  await expect(page.locator("#with-content > [data-service-teaser=banner]")).toHaveCount(1);
  await expect(page.locator("#with-content > h3")).toHaveText("Trade in");
  await expect(page.locator("#lost > *, #unknown > *, #typo > *")).toHaveCount(0);
  await expect(shop.teasers("banner")).toHaveCount(banners + 2);
  expect(shop.warnings.join("\n")).toContain(
    "[service] a data-target is not a CSS selector, so no teaser goes there: [[not css",
  );
});

test("the wizard's catalog is a plain GET: one request to the service, with no CORS preflight before it", async ({
  shop,
  request,
}) => {
  // A GET that claims a JSON body (content-type) is no simple request: the browser would ask
  // the service first (OPTIONS), a round trip more before the wizard's first step shows.
  await shop.open();
  await shop.teasers("banner").first().getByRole("button").click();
  await expect(shop.wizard().getByLabel("Category")).toBeVisible();
  const journal = (await (await request.get("/__emulator/journal?kind=request")).json()) as {
    entries: { method: string; path: string }[];
  };
  const catalog = journal.entries.filter((e) => e.path.startsWith("/sdk/v1/catalog"));
  expect(catalog.map((e) => e.method)).toContain("GET");
  expect(catalog.filter((e) => e.method !== "GET")).toEqual([]);
});

test("the shopper is asked of the shop on every page, never taken from the browser's cache: signed out at a shop whose shopper_data answer may be cached, the next page's wizard asks to log in", async ({
  shop,
}) => {
  // Contract, Merchant endpoints: shopper_data tells who the shopper is now. A shop's framework
  // may mark its answer cacheable; a cached answer would keep a signed-out shopper signed in.
  await shop.setState({ cacheableShopperData: true });
  await shop.open();
  await shop.teasers("banner").first().getByRole("button").click();
  await expect(shop.wizard().getByLabel("Category")).toBeVisible();
  await shop.setState({ customer: null });
  await shop.open();
  await shop.teasers("banner").first().getByRole("button").click();
  await expect(
    shop.wizard().getByRole("heading", { name: "Log in to calculate your discount" }),
  ).toBeVisible();
});

test("Service.ready resolves after service-ready; ready-to-place-order listeners unsubscribed (the first, the last, one twice) are not called, the one kept is", async ({
  shop,
  page,
}) => {
  await shop.setState({ cart: shop.cart(79_860) });
  await shop.open();
  const names = await page.evaluate(async () => {
    const w = window as unknown as {
      Service: { ready: Promise<void> };
      __serviceEvents: { name: string }[];
    };
    await w.Service.ready;
    return w.__serviceEvents.map((e) => e.name);
  });
  expect(names).toContain("service-ready");
  await shop.valuate("Test devices", "Test phone: offer of 10.00 (test)");
  await page.evaluate(() => {
    const service = (
      window as unknown as {
        Service: { addReadyToPlaceOrderListener(cb: () => void): () => void };
      }
    ).Service;
    // Of three listeners added here (the test page has one of its own before them), the first
    // and the last unsubscribed, the first's twice, after the last's: a second call removes
    // nothing more.
    const first = service.addReadyToPlaceOrderListener(() =>
      sessionStorage.setItem("first", "called"),
    );
    service.addReadyToPlaceOrderListener(() => sessionStorage.setItem("kept", "called"));
    const last = service.addReadyToPlaceOrderListener(() =>
      sessionStorage.setItem("removed", "called"),
    );
    last();
    first();
    first();
  });
  await page.getByLabel("Pay with Service").check();
  await page.getByRole("button", { name: "Place order" }).click();
  await Promise.all([
    page.waitForURL(/\/confirmation$/),
    shop.payment().getByRole("button", { name: "Pay now" }).click(),
  ]);
  await shop.ready();
  expect(
    await page.evaluate(() =>
      ["first", "kept", "removed"].map((key) => sessionStorage.getItem(key)),
    ),
  ).toEqual([null, "called", null]);
});

/**
 * The start-up waiting on /init, given up once the SDK's 30 s pass on the page's clock: the
 * console names the call and its time limit, and the page starts without a session (the accepted
 * offer not claimed, the teasers showing the call to action).
 */
async function expectInitGivenUp(shop: Shop, page: Page) {
  expect(await shop.eventNames()).toEqual([]);
  await page.clock.fastForward("00:31");
  await shop.ready();
  const warning = shop.warnings.find((w) => w.includes("[service] start-up failed")) ?? "";
  expect(warning).toContain("the service did not answer /init within 30 s");
  expect(await shop.hasActiveTradeIn()).toBe(false);
  await expect(shop.teasers("banner").first()).toHaveAttribute("data-state", "cta");
}

test("start-up's init unanswered: after the SDK's 30 s the console says which call did not answer and in how long, and the page starts without a session", async ({
  shop,
  page,
}) => {
  await shop.open();
  await shop.valuate("Test devices", "Test phone: offer of 10.00 (test)");
  await page.clock.install();
  let reached = 0;
  await page.route(
    (url) => url.pathname.endsWith("/sdk/v1/init"),
    (route) => {
      if (route.request().method() === "OPTIONS") return route.fallback();
      reached += 1;
      // no answer: the call is held until the SDK gives it up
    },
  );
  await page.reload();
  await expect.poll(() => reached).toBe(1);
  await expectInitGivenUp(shop, page);
});

test("start-up's init answered, then stalled while its body is read: after the SDK's 30 s it is given up as unanswered, in the same words, and the page starts without a session", async ({
  shop,
  page,
}) => {
  // A merchant of this test's own, so the fault touches no other test's page.
  const merchant = await ownMerchant(page, {
    currency: "EUR",
    name: "init_stalls",
    clock: { seconds: 0 },
  });
  await shop.open(`merchant=${merchant}`);
  await shop.valuate("Test devices", "Test phone: offer of 10.00 (test)");
  await page.clock.install();
  // The emulator sends init's status, headers and half its body, and holds the rest.
  const fault = await page.request.post("/__emulator/faults", {
    data: { endpoint: "/sdk/v1/init", merchant, body_stall_ms: 120_000, count: 1 },
  });
  expect(fault.status(), await fault.text()).toBe(201);
  const answered = page.waitForResponse(
    (response) =>
      response.request().method() === "POST" && new URL(response.url()).pathname === "/sdk/v1/init",
  );
  await page.reload();
  expect((await answered).status()).toBe(200);
  await expectInitGivenUp(shop, page);
});
