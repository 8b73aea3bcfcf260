import { createHash } from "node:crypto";
import { A_MESSAGE, expect, test } from "./fixtures";

test("start-up binds the session, dispatches service-ready once and exports the service", async ({
  shop,
  page,
}) => {
  await shop.open();
  expect(await shop.eventNames()).toEqual(["service-ready"]);
  const shape = await page.evaluate(async () => {
    // The page imports the SDK once; importing the same URL again gives the same module.
    const script = document.querySelector("script[type=module]")?.textContent ?? "";
    const url = /import\("([^"]+)"\)/.exec(script)?.[1];
    const module = await import(url as string);
    const service = (window as unknown as { Service: Record<string, unknown> }).Service;
    return {
      sameObject: module.default === service && module.Service === service,
      methods: [
        "openValuation",
        "openPayment",
        "updatePaymentSelected",
        "paymentOptionDetailsFor",
        "addReadyToPlaceOrderListener",
        "hasActiveTradeIn",
      ].filter((name) => typeof service[name] === "function"),
    };
  });
  expect(shape.sameObject).toBe(true);
  expect(shape.methods).toHaveLength(6);
  expect(await shop.hasActiveTradeIn()).toBe(false);
});

test("the SDK is served as JavaScript with CORS for allowed origins only", async ({
  request,
  baseURL,
}) => {
  const service = (baseURL as string).replace("127.0.0.1", "localhost");
  const assets = `${service}/assets/v1/main.js`;
  const allowed = await request.get(assets, { headers: { origin: "http://localhost:3000" } });
  expect(allowed.status()).toBe(200);
  expect(allowed.headers()["content-type"]).toMatch(/^text\/javascript/);
  expect(allowed.headers()["access-control-allow-origin"]).toBe("http://localhost:3000");
  // The release suite (scripts/sdk-release) names the bundle it means to test: this server serves it.
  const expected = process.env.EXPECT_SDK_SHA256;
  if (expected) {
    const served = await (await request.get("/__emulator/sdk")).json();
    expect(served.sha256, "the emulator serves the SDK build under test").toBe(expected);
    expect(
      createHash("sha256")
        .update(await allowed.body())
        .digest("hex"),
    ).toBe(expected);
  }
  const other = await request.get(assets, { headers: { origin: "https://evil.example" } });
  expect(other.headers()["access-control-allow-origin"]).toBeUndefined();
  const forbidden = await request.post(`${service}/sdk/v1/init`, {
    headers: { origin: "https://evil.example" },
    data: { merchant_id: "m_demo", session_hash: null, customer: null },
  });
  expect(forbidden.status()).toBe(403);
  expect(await forbidden.json()).toMatchObject({ error: "forbidden" });
});

test("teasers before a valuation: every type, data-target and the configured selectors", async ({
  shop,
  page,
}) => {
  await shop.open();
  // Each type once through `.service-teaser[data-type]` and once through its CSS selector.
  await expect(shop.teasers("banner")).toHaveCount(2);
  await expect(shop.teasers("product-widget")).toHaveCount(2);
  await expect(shop.teasers("cart-summary")).toHaveCount(2);
  // data-target: the product widget goes into #product-widget-slot, not into the marker.
  await expect(page.locator("#product-widget-slot > [data-service-teaser]")).toHaveCount(1);
  await expect(
    page.locator('.service-teaser[data-type="product-widget"] > [data-service-teaser]'),
  ).toHaveCount(0);
  for (const teaser of await shop.teasers().all()) {
    await expect(teaser).toHaveAttribute("data-state", "cta");
    await expect(teaser.getByRole("button", { name: "Calculate discount" })).toBeVisible();
  }
  // Shadow DOM keeps the page's styles out: the teaser's button is not styled by the page.
  expect(
    await shop
      .teasers("banner")
      .first()
      .evaluate((host) => host.shadowRoot?.mode),
  ).toBe("open");
  // The call to action opens the wizard.
  await shop.teasers("banner").first().getByRole("button", { name: "Calculate discount" }).click();
  await expect(shop.wizard()).toBeVisible();
});

test("teasers added later by a single-page app are filled in", async ({ shop, page }) => {
  await shop.open();
  await page.evaluate(() => {
    const late = document.createElement("div");
    late.className = "service-teaser";
    late.dataset.type = "banner";
    late.id = "late";
    document.querySelector("main")?.append(late);
  });
  await expect(page.locator("#late > [data-service-teaser=banner]")).toHaveCount(1);
});

test("after a valuation every teaser shows the offer, also after a reload", async ({
  shop,
  page,
}) => {
  await shop.open();
  await shop.valuate("Test devices", "Test phone: offer of 10.00 (test)");
  for (const teaser of await shop.teasers().all()) {
    await expect(teaser).toHaveAttribute("data-state", "offer");
    await expect(teaser).toContainText("Test phone: offer of 10.00");
    await expect(teaser).toContainText("€10.00");
    await expect(teaser).toContainText("Valid until");
  }
  expect(await shop.hasActiveTradeIn()).toBe(true);
  await page.reload();
  await shop.ready();
  expect(await shop.hasActiveTradeIn()).toBe(true);
  await expect(shop.teasers("banner").first()).toHaveAttribute("data-state", "offer");
});

test("after a valuation the SDK re-renders only the teasers it made: a merchant's own element with the teaser's attribute keeps its content", async ({
  shop,
  page,
}) => {
  await shop.open();
  await page.evaluate(() => {
    // The merchant's own widget, which happens to use the SDK's attribute and an open shadow root.
    const own = document.createElement("div");
    own.id = "merchants-own";
    own.dataset.serviceTeaser = "banner";
    own.attachShadow({ mode: "open" }).innerHTML = "<p>The merchant's own words</p>";
    document.querySelector("main")?.append(own);
  });
  await shop.valuate("Test devices", "Test phone: offer of 10.00 (test)");
  await expect(
    page.locator(".service-teaser > [data-service-teaser=banner]").first(),
  ).toHaveAttribute("data-state", "offer");
  const own = page.locator("#merchants-own");
  await expect(own).toHaveText("The merchant's own words");
  await expect(own).not.toHaveAttribute("data-state");
  await expect(own.getByRole("button")).toHaveCount(0);
});

test("an anonymous shopper (shopper_data 404) still sees teasers; the wizard asks to log in", async ({
  shop,
  page,
}) => {
  await shop.setState({ customer: null });
  const init = page.waitForRequest((request) => request.url().endsWith("/sdk/v1/init"));
  await shop.open();
  // Contract, Merchant endpoints: 404 is the anonymous shopper, no failure. The SDK starts its
  // session as for anyone, without a customer, and says nothing in the console.
  expect((await init).postDataJSON()).toMatchObject({ session_hash: null, customer: null });
  expect(shop.warnings).toEqual([]);
  expect(await shop.eventNames()).toEqual(["service-ready"]);
  await expect(shop.teasers("banner").first()).toHaveAttribute("data-state", "cta");
  await shop.teasers("banner").first().getByRole("button", { name: "Calculate discount" }).click();
  const wizard = shop.wizard();
  await expect(
    wizard.getByRole("heading", { name: "Log in to calculate your discount" }),
  ).toBeVisible();
  await wizard.getByRole("button", { name: "Close" }).last().click();
  await expect(wizard).toBeHidden();
  expect((await shop.details()).mode).toBe("tradein_missing");
  expect((await shop.events()).at(-1)).toMatchObject({
    name: "service-modal-closed",
    detail: { message: A_MESSAGE },
  });
});

test("Spanish pages get Spanish teasers and texts", async ({ shop }) => {
  await shop.open("lang=es");
  await expect(
    shop.teasers("banner").first().getByRole("button", { name: "Calcular descuento" }),
  ).toBeVisible();
  expect((await shop.details()).label).toBe("Pagar con Service");
});
