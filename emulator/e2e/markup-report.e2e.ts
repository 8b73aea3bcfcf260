// The SDK's report of the merchant's Service Pay option (POST /sdk/v1/observations, kind
// "payment_option_markup"), rule by rule: how the SDK finds the radio, which element is the
// option's own (for its icon), where it looks for the option's texts and when it judges them, and
// how often it reports. Each case arranges the SDK test page's checkout, once it is set up and
// before the SDK looks (half a second after the details arrive), the way some shop's markup is
// arranged, and reads the report as the browser sends it. The go-live rules the reports feed are
// careless-merchant.e2e.ts's.
// The base `test`, not ./fixtures' (which fails on console errors): some arrangements are a
// careless shop's.
import { expect, type Page, type Request } from "@playwright/test";
import { test } from "../../scripts/sdk-release/sdk-coverage";
import { Shop } from "./fixtures";

const SMALL_OFFER = "Test phone: offer of 10.00 (test)";

/**
 * Arrangements of the checkout, by name (the page's `arrange` parameter). One init script holds
 * them all: it runs in the page, so it reads its choice from the page's own URL.
 */
async function arrangeCheckout(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shownInfo = (form: HTMLFormElement): HTMLElement => {
      const info = form.querySelector<HTMLElement>("#service-info");
      if (!info) throw new Error("the test page has no #service-info");
      info.hidden = false;
      return info;
    };
    const disclose = (form: HTMLFormElement, expanded: string) => {
      const info = shownInfo(form);
      const toggle = document.createElement("button");
      toggle.type = "button";
      toggle.textContent = "About Service Pay";
      toggle.setAttribute("aria-controls", info.id);
      toggle.setAttribute("aria-expanded", expanded);
      info.before(toggle);
    };
    const arrangements: Record<string, (form: HTMLFormElement) => void> = {
      // The card radio, first on the page, carries a module name of its own.
      "card-with-module-name": (form) => {
        const card = form.querySelector<HTMLInputElement>('input[value="card"]');
        if (card) card.dataset.moduleName = "cards";
      },
      // Neither the value nor the label says Service Pay: only data-module-name does.
      "found-by-module-name": (form) => {
        const radio = form.querySelector<HTMLInputElement>("#service-option input");
        if (radio) radio.value = "sp";
        const label = form.querySelector("#service-label");
        if (label) label.textContent = "Trade-in payment";
      },
      // The radio sits in a span of its own inside the label; the icon is beside the span.
      "radio-in-span": (form) => {
        const radio = form.querySelector<HTMLInputElement>("#service-option input");
        if (!radio) return;
        const span = document.createElement("span");
        radio.replaceWith(span);
        span.append(radio);
      },
      // The label is the radio's sibling, tied by for=; the radio's own box has no icon.
      "label-for": (form) => {
        const radio = form.querySelector<HTMLInputElement>("#service-option input");
        const label = form.querySelector<HTMLLabelElement>("#service-option");
        if (!radio || !label) return;
        radio.id = "service-radio";
        label.htmlFor = radio.id;
        const box = document.createElement("div");
        label.before(box);
        box.append(radio);
      },
      // The option's info shown in a debugging panel (pre), the paragraph itself hidden.
      "info-in-pre": (form) => {
        const info = form.querySelector<HTMLElement>("#service-info");
        if (!info) return;
        const panel = document.createElement("pre");
        panel.textContent = info.textContent;
        info.after(panel);
      },
      // Only the extra text shown, the radio not chosen.
      "extra-shown": (form) => {
        const extra = form.querySelector<HTMLElement>("#service-extra");
        if (extra) extra.hidden = false;
      },
      // The extra text shown because the radio is chosen (as the contract asks).
      "extra-shown-chosen": (form) => {
        const extra = form.querySelector<HTMLElement>("#service-extra");
        if (extra) extra.hidden = false;
        const radio = form.querySelector<HTMLInputElement>("#service-option input");
        if (radio) radio.checked = true;
      },
      // The info shown under a disclosure the shopper opened, or one still closed.
      "disclosure-open": (form) => disclose(form, "true"),
      "disclosure-closed": (form) => disclose(form, "false"),
      // The info shown below the payment methods: in the form, not in their fieldset.
      "info-below-payment-methods": (form) => {
        const info = shownInfo(form);
        form.querySelector("fieldset")?.after(info);
      },
      // The info shown as the page's own copy, outside the form.
      "info-outside-form": (form) => form.after(shownInfo(form)),
      // No form: the payment methods' fieldset stands alone; the info shown below it.
      "fieldset-without-form": (form) => {
        const fieldset = form.querySelector("fieldset");
        const info = shownInfo(form);
        if (!fieldset) return;
        form.replaceWith(fieldset);
        fieldset.after(info);
      },
    };
    new MutationObserver((_, observer) => {
      if (document.body?.dataset.ready !== "true") return;
      observer.disconnect();
      const chosen = new URLSearchParams(location.search).get("arrange");
      const form = document.querySelector<HTMLFormElement>("form#checkout");
      if (chosen && form) arrangements[chosen]?.(form);
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });
  });
}

/**
 * What the browser sends, in order: the SDK's markup reports ("markup") and the page's own marks
 * ("mark", `mark()`: a request of the page's own, after any report sent before it).
 */
function reportsOf(page: Page) {
  const reports: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/__emulator/health?mark")) reports.push("mark");
    if (isMarkupReport(request)) reports.push("markup");
  });
  return { reports, mark: () => page.evaluate(() => fetch("/__emulator/health?mark")) };
}

function isMarkupReport(request: Request): boolean {
  return (
    request.url().endsWith("/sdk/v1/observations") &&
    request.method() === "POST" &&
    (request.postDataJSON() as { kind?: string }).kind === "payment_option_markup"
  );
}

function markupReport(page: Page): Promise<Request> {
  return page.waitForRequest(isMarkupReport);
}

/** The checkout's option rendered late: until `render()` the page's option is no radio (the SDK
 *  looks for a radio). */
async function lateOption(page: Page) {
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      const input = document.querySelector<HTMLInputElement>("#service-option input");
      if (!input) return;
      input.type = "checkbox";
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  return {
    ...reportsOf(page),
    render: () =>
      page.evaluate(() => {
        const input = document.querySelector<HTMLInputElement>("#service-option input");
        if (input) input.type = "radio";
      }),
  };
}

const refreshDetails = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __refreshPaymentOption(): Promise<unknown> }).__refreshPaymentOption(),
  );

const CASES: { arrange: string; why: string; report: Record<string, unknown> }[] = [
  {
    arrange: "card-with-module-name",
    why: "the radio whose value is service_pay is the option, though another radio comes first with a module name",
    report: { value: "service_pay", module_name: "servicepay", has_icon: true },
  },
  {
    arrange: "found-by-module-name",
    why: "a radio found by its data-module-name alone",
    report: { found: true, value: "sp", module_name: "servicepay", has_icon: true },
  },
  {
    arrange: "radio-in-span",
    why: "the label around the radio is the option's box, not the radio's parent: its icon counts",
    report: { value: "service_pay", has_icon: true },
  },
  {
    arrange: "label-for",
    why: "a label tied by for= is the option's box: its icon counts",
    report: { value: "service_pay", has_icon: true },
  },
  {
    arrange: "info-in-pre",
    why: "text in pre or code is data on display, not the option's text left visible",
    report: { info_visible: false, extra_visible_unselected: false, visible_in: null },
  },
  {
    arrange: "extra-shown",
    why: "the extra text shown before the option is chosen is reported where it shows",
    report: { info_visible: false, extra_visible_unselected: true, visible_in: "p#service-extra" },
  },
  {
    arrange: "extra-shown-chosen",
    why: "the extra text shown once the option is chosen is what the contract asks",
    report: { info_visible: false, extra_visible_unselected: false, visible_in: null },
  },
  {
    arrange: "disclosure-open",
    why: "info under a disclosure the shopper opened (aria-expanded true names it) is the side panel the contract asks for, not text left visible",
    report: { info_visible: false, visible_in: null },
  },
  {
    arrange: "disclosure-closed",
    why: "info under a disclosure still closed is text left visible",
    report: { info_visible: true, visible_in: "p#service-info" },
  },
  {
    arrange: "info-below-payment-methods",
    why: "the option's texts are looked for in its form: shown below the payment methods (the form, not their fieldset) they count",
    report: { info_visible: true, visible_in: "p#service-info" },
  },
  {
    arrange: "info-outside-form",
    why: "the page's own copy outside the option's form does not count",
    report: { info_visible: false, visible_in: null },
  },
  {
    arrange: "fieldset-without-form",
    why: "without a form the option's fieldset is where its texts are looked for: the page below it is not",
    report: { found: true, info_visible: false, visible_in: null },
  },
];

test.describe("the SDK's report of the payment option's markup", () => {
  for (const { arrange, why, report } of CASES) {
    test(`${arrange}: ${why}`, async ({ page }) => {
      await arrangeCheckout(page);
      const shop = new Shop(page, `markup-${arrange}-${Date.now()}`);
      const seen = markupReport(page);
      await shop.open(`arrange=${arrange}`);
      expect((await seen).postDataJSON()).toMatchObject(report);
    });
  }

  test("an option rendered late is looked for for 10 s, then only when the details are asked for again", async ({
    page,
  }) => {
    const shop = new Shop(page, `markup-late-${Date.now()}`);
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
    const seen = markupReport(page);
    await refreshDetails(page);
    await page.clock.runFor(1_000);
    expect((await seen).postDataJSON()).toMatchObject({ found: true, value: "service_pay" });
  });

  test("an option rendered a few seconds late is found while the SDK still looks", async ({
    page,
  }) => {
    const shop = new Shop(page, `markup-later-${Date.now()}`);
    const option = await lateOption(page);
    await page.clock.install();
    await shop.open();
    // Three seconds in, six of the twenty looks spent, the option appears: the next look finds it.
    await page.clock.runFor(3_000);
    await option.render();
    await page.clock.runFor(1_000);
    await expect.poll(() => option.reports).toEqual(["markup"]);
  });

  test("the option is reported once per page: the details asked for again report nothing more", async ({
    page,
  }) => {
    const shop = new Shop(page, `markup-once-${Date.now()}`);
    const watch = reportsOf(page);
    await page.clock.install();
    await shop.open();
    await page.clock.runFor(1_000);
    await expect.poll(() => watch.reports).toEqual(["markup"]);
    await refreshDetails(page);
    await page.clock.runFor(1_000);
    await watch.mark();
    expect(watch.reports).toEqual(["markup", "mark"]);
  });

  test("an option unavailable on the page (its products lack ep1) is not reported", async ({
    page,
  }) => {
    const shop = new Shop(page, `markup-unavailable-${Date.now()}`);
    const watch = reportsOf(page);
    await page.clock.install();
    await shop.open("products=valuations");
    expect(await page.locator("#checkout").getAttribute("data-mode")).toBe("unavailable");
    await page.clock.runFor(1_000);
    await watch.mark();
    expect(watch.reports).toEqual(["mark"]);
  });

  test("in tradein_valid the texts are judged as in tradein_missing: info and extra shown before the option is chosen are reported", async ({
    page,
  }) => {
    const shop = new Shop(page, `markup-valid-${Date.now()}`);
    // The first page view's own report, awaited: on a slow machine it may be sent after the
    // valuation, and only the second page's report is the one judged below.
    const first = markupReport(page);
    await shop.open();
    await first;
    await shop.valuate("Test devices", SMALL_OFFER);
    // A new page view of the same shopper: the SDK reports the option once per page.
    const seen = markupReport(page);
    await shop.open("careless=markup.info-extra-hidden");
    expect(await page.locator("#checkout").getAttribute("data-mode")).toBe("tradein_valid");
    expect((await seen).postDataJSON()).toMatchObject({
      info_visible: true,
      extra_visible_unselected: true,
      visible_in: "p#service-info",
    });
  });
});
