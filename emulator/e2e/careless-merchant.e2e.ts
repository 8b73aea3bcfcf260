// The careless merchant's page mistakes, which only a browser shows: the real SDK looks at the
// page and its callbacks, reports what it saw (POST /sdk/v1/observations), and the go-live
// readiness report of m_test turns it into a failing rule. Page mistakes come from the page's
// query and callback mistakes from the shop's own state, so parallel tests are not affected.
// These tests use the base `test`, not ./fixtures' (which fails on console errors): a careless
// shop's console errors are expected. How the SDK reads the option's markup, rule by rule, is
// markup-report.e2e.ts.
import { expect, type Page, type Request } from "@playwright/test";
import { test } from "../../scripts/sdk-release/sdk-coverage";
import { Shop } from "./fixtures";

type Rule = { id: string; verdict: string; note: string; evidence: { seq: number }[] };
type Report = { groups: { rules: Rule[] }[] };

function shopFor(page: Page, name: string): Shop {
  return new Shop(page, `careless-${name}-${Date.now()}`);
}

function observation(page: Page, kind: string, callback?: string): Promise<Request> {
  return page.waitForRequest((request) => {
    if (!request.url().endsWith("/sdk/v1/observations") || request.method() !== "POST") {
      return false;
    }
    const body = request.postDataJSON() as { kind?: string; callback?: string };
    return body.kind === kind && (callback === undefined || body.callback === callback);
  });
}

async function ruleOf(page: Page, id: string): Promise<Rule> {
  const response = await page.request.get("/__emulator/readiness?merchant=m_test");
  const report = (await response.json()) as Report;
  const rule = report.groups.flatMap((g) => g.rules).find((r) => r.id === id);
  if (!rule) throw new Error(`no rule ${id}`);
  return rule;
}

test("a page whose radio has the wrong value, no data-module-name and no icon fails markup.payment-option", async ({
  page,
}) => {
  const shop = shopFor(page, "markup");
  const seen = observation(page, "payment_option_markup");
  await page.goto(`${shop.base}/?careless=markup.payment-option`);
  const body = (await seen).postDataJSON();
  // Neither the value nor data-module-name names it: the SDK still finds the option by the label
  // it shows, so the merchant is told what is wrong with it rather than that it is missing.
  expect(body).toMatchObject({
    found: true,
    value: "service-pay",
    module_name: null,
    has_icon: false,
  });
  await expect.poll(async () => (await ruleOf(page, "markup.payment-option")).verdict).toBe("fail");
});

test("info and extra shown before selection fail markup.info-extra-hidden", async ({ page }) => {
  const shop = shopFor(page, "texts");
  const seen = observation(page, "payment_option_markup");
  await page.goto(`${shop.base}/?careless=markup.info-extra-hidden`);
  // Where the text shows, as the merchant reads it in the report: the element, its id and classes.
  expect((await seen).postDataJSON()).toMatchObject({
    info_visible: true,
    visible_in: "p#service-info",
  });
  await expect
    .poll(async () => (await ruleOf(page, "markup.info-extra-hidden")).verdict)
    .toBe("fail");
  expect((await ruleOf(page, "markup.info-extra-hidden")).note).toContain("(in p#service-info)");
});

test("without Element.checkVisibility (browsers before it), hidden texts are still told from shown ones", async ({
  page,
}) => {
  // The SDK's fallback for such browsers: an element with no offsetParent is not shown.
  await page.addInitScript(() => {
    delete (Element.prototype as { checkVisibility?: unknown }).checkVisibility;
  });
  const careful = observation(page, "payment_option_markup");
  await shopFor(page, "careful-old").open();
  expect((await careful).postDataJSON()).toMatchObject({
    info_visible: false,
    extra_visible_unselected: false,
  });
  const careless = observation(page, "payment_option_markup");
  await page.goto(`${shopFor(page, "texts-old").base}/?careless=markup.info-extra-hidden`);
  expect((await careless).postDataJSON()).toMatchObject({
    info_visible: true,
    visible_in: "p#service-info",
  });
});

test("text left visible in an element without an id is named by its tag and every class", async ({
  page,
}) => {
  const shop = shopFor(page, "texts-no-id");
  // Once the page is set up (it holds its own reference), its info paragraph loses its id for two
  // classes, before the SDK looks (half a second after the details arrive).
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.body?.dataset.ready !== "true") return;
      const info = document.getElementById("service-info");
      info?.classList.add("info-text", "shown");
      info?.removeAttribute("id");
      observer.disconnect();
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });
  });
  const seen = observation(page, "payment_option_markup");
  await page.goto(`${shop.base}/?careless=markup.info-extra-hidden`);
  expect((await seen).postDataJSON()).toMatchObject({
    info_visible: true,
    visible_in: "p.info-text.shown",
  });
});

test("the careful page's markup is reported without a problem", async ({ page }) => {
  const shop = shopFor(page, "careful");
  const seen = observation(page, "payment_option_markup");
  await shop.open();
  expect((await seen).postDataJSON()).toMatchObject({
    found: true,
    name: "payment_method",
    value: "service_pay",
    module_name: "servicepay",
    has_icon: true,
    info_visible: false,
    extra_visible_unselected: false,
  });
});

test("a shopper_data in the wrong shape fails callback.shopper-data", async ({ page }) => {
  const shop = shopFor(page, "shopper");
  await shop.setState({ careless: ["callback.shopper-data"] });
  const seen = observation(page, "callback", "shopper_data");
  await page.goto(`${shop.base}/`);
  const body = (await seen).postDataJSON() as { status: number; body_text: string };
  expect(body.status).toBe(200);
  expect(JSON.parse(body.body_text).customer.id).toBe(42);
  await expect.poll(async () => (await ruleOf(page, "callback.shopper-data")).verdict).toBe("fail");
});

test("purchase_data answering 404 for an empty cart fails callback.purchase-data", async ({
  page,
}) => {
  const shop = shopFor(page, "purchase");
  await shop.setState({ cart: null, careless: ["callback.purchase-data"] });
  const seen = observation(page, "callback", "purchase_data");
  await page.goto(`${shop.base}/`);
  expect(((await seen).postDataJSON() as { status: number }).status).toBe(404);
  await expect
    .poll(async () => (await ruleOf(page, "callback.purchase-data")).verdict)
    .toBe("fail");
});
