// The careless merchant's page mistakes, which only a browser shows: the real SDK looks at the
// page and its callbacks, reports what it saw (POST /sdk/v1/observations), and the go-live
// readiness report of m_test turns it into a failing rule. Page mistakes come from the page's
// query and callback mistakes from the shop's own state, so parallel tests are not affected.
// These tests use the base `test`, not ./fixtures' (which fails on console errors): a careless
// shop's console errors are expected.
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

/**
 * The checkout's option rendered late: until `render()` the page's option is no radio (the SDK
 * looks for a radio). `reports` lists in order what the browser sends: the SDK's markup reports
 * ("markup", sent only for an option found) and the page's own marks ("mark", `mark()`).
 */
async function lateOption(page: Page) {
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      const input = document.querySelector<HTMLInputElement>("#service-option input");
      if (!input) return;
      input.type = "checkbox";
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  const reports: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/__emulator/health?mark")) reports.push("mark");
    if (!request.url().endsWith("/sdk/v1/observations") || request.method() !== "POST") return;
    if ((request.postDataJSON() as { kind?: string }).kind === "payment_option_markup")
      reports.push("markup");
  });
  return {
    reports,
    render: () =>
      page.evaluate(() => {
        const input = document.querySelector<HTMLInputElement>("#service-option input");
        if (input) input.type = "radio";
      }),
    /** A request of the page's own, after any report sent before it. */
    mark: () => page.evaluate(() => fetch("/__emulator/health?mark")),
  };
}

test("an option rendered late is looked for for 10 s, then only when the details are asked for again", async ({
  page,
}) => {
  const shop = shopFor(page, "late-option");
  const option = await lateOption(page);
  await page.clock.install();
  await shop.open();
  // Twenty looks half a second apart, then the SDK gives up; the option appears after that.
  await page.clock.runFor(11_000);
  await option.render();
  await page.clock.runFor(2_000);
  await option.mark();
  expect(option.reports).toEqual(["mark"]);
  // Asked for the details again, the SDK looks again and reports the option.
  const seen = observation(page, "payment_option_markup");
  await page.evaluate(() =>
    (window as unknown as { __refreshPaymentOption(): Promise<unknown> }).__refreshPaymentOption(),
  );
  await page.clock.runFor(1_000);
  expect((await seen).postDataJSON()).toMatchObject({ found: true, value: "service_pay" });
});

test("an option rendered a few seconds late is found while the SDK still looks", async ({
  page,
}) => {
  const shop = shopFor(page, "later-option");
  const option = await lateOption(page);
  await page.clock.install();
  await shop.open();
  // Three seconds in, six of the twenty looks spent, the option appears: the next look finds it.
  await page.clock.runFor(3_000);
  await option.render();
  await page.clock.runFor(1_000);
  await expect.poll(() => option.reports).toEqual(["markup"]);
});

/** On the careful page, once it is set up (before the SDK looks, half a second after the
 *  details arrive), the info paragraph is shown and `arrange` (a function of the page's URL
 *  parameters and the info) places it. */
async function showInfo(page: Page, arrange: (params: URLSearchParams, info: HTMLElement) => void) {
  await page.addInitScript(
    ({ body }) => {
      const place = new Function("params", "info", body) as typeof arrange;
      new MutationObserver((_, observer) => {
        if (document.body?.dataset.ready !== "true") return;
        const info = document.getElementById("service-info");
        if (!info) return;
        observer.disconnect();
        info.hidden = false;
        place(new URLSearchParams(location.search), info);
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });
    },
    { body: `(${arrange.toString()})(params, info);` },
  );
}

test("info the shopper opened (a disclosure whose aria-expanded is true names it) is the side panel the contract asks for, not text left visible; under a closed disclosure it is", async ({
  page,
}) => {
  await showInfo(page, (params, info) => {
    const toggle = document.createElement("button");
    toggle.type = "button";
    toggle.textContent = "About Service Pay";
    toggle.setAttribute("aria-controls", info.id);
    toggle.setAttribute("aria-expanded", params.get("expanded") ?? "");
    info.before(toggle);
  });
  for (const expanded of ["true", "false"]) {
    const seen = observation(page, "payment_option_markup");
    await shopFor(page, `texts-disclosure-${expanded}`).open(`expanded=${expanded}`);
    expect((await seen).postDataJSON(), `aria-expanded="${expanded}"`).toMatchObject(
      expanded === "true"
        ? { info_visible: false, visible_in: null }
        : { info_visible: true, visible_in: "p#service-info" },
    );
  }
});

test("the option's texts are looked for in its form: shown below the payment methods (the form, not their fieldset) they count; the page's own copy outside the form does not", async ({
  page,
}) => {
  await showInfo(page, (params, info) => {
    if (params.get("where") === "form") info.closest("fieldset")?.after(info);
    else info.closest("form")?.after(info);
  });
  for (const where of ["form", "page"]) {
    const seen = observation(page, "payment_option_markup");
    await shopFor(page, `texts-${where}`).open(`where=${where}`);
    expect((await seen).postDataJSON(), `shown in the ${where}`).toMatchObject(
      where === "form"
        ? { info_visible: true, visible_in: "p#service-info" }
        : { info_visible: false, visible_in: null },
    );
  }
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
