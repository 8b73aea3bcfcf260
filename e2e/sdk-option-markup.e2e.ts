// What the SDK reports of the shop's payment option (contract, Front-end SDK › Payment option
// markup; emulator/README.md, "Go-live readiness"), read as the shopper's browser sends it: once
// per page the SDK looks at the option's markup and POSTs what it saw to the service's
// observations. The expected report is computed from the shop's own markup, never read back
// from the service, so this runs against a staging service too (no control API). The page's
// markup is broken from the test the way a careless shop breaks it, mirroring the SDK page
// suite's careless merchant (emulator/e2e/careless-merchant.e2e.ts, strictness.e2e.ts); those
// reports are dropped by the browser, so the go-live readiness report judges only the shop's
// own markup.
import type { Page } from "@playwright/test";
import { SHOPPER } from "./fixtures";
import { expect, test } from "./support/fixtures";
import { openCheckoutWith } from "./support/journeys";
import { sdkWarnings } from "./support/sdk-console";
import { sdkObservation } from "./support/sdk-observations";
import { expectOptionShape } from "./support/sdk-shape";

/** The SDK's report of the option's markup, without the observation session's stamp. */
type MarkupReport = {
  kind: "payment_option_markup";
  found: boolean;
  name: string;
  value: string;
  module_name: string | null;
  has_icon: boolean;
  info_visible: boolean;
  extra_visible_unselected: boolean;
  visible_in: string | null;
};

/**
 * Every markup report the SDK sends from this page, in order. `drop()`: from then on they are
 * read and aborted (a page the test broke is no shop's markup to judge).
 */
async function markupReports(page: Page) {
  const seen: MarkupReport[] = [];
  let dropping = false;
  await page.route(
    (url) => url.pathname === "/sdk/v1/observations",
    (route) => {
      const report = sdkObservation<MarkupReport>(route.request(), "payment_option_markup");
      if (!report) return route.fallback();
      seen.push(report);
      return dropping ? route.abort() : route.fallback();
    },
  );
  return {
    drop() {
      dropping = true;
    },
    /** The n-th report (1-based), once the browser sent it. */
    async nth(n: number): Promise<MarkupReport> {
      await expect.poll(() => seen.length, { message: "the SDK reported the markup" }).toBe(n);
      return seen[n - 1] as MarkupReport;
    },
  };
}

/**
 * The report the contract's rules give for the checkout's option as the page holds it now:
 * its radio's name, value and data-module-name, an icon inside its label, and where (if
 * anywhere) the info text shows before the shopper opened it: the element the SDK names by its
 * tag, id and classes; and whether the extra text shows before the option is selected.
 */
async function expectedReport(page: Page): Promise<MarkupReport> {
  return page.evaluate(() => {
    const radio = document.querySelector<HTMLInputElement>(
      'input[type="radio"][value="service_pay"]',
    );
    if (!radio) throw new Error("no Service Pay radio on the page");
    const label = document.querySelector(`label[for="${CSS.escape(radio.id)}"]`);
    const info = document.querySelector<HTMLElement>('[data-testid="service-pay-info"]');
    const shown = info?.checkVisibility() ? info : null;
    // The extra text counts only while the option is not selected (contract: shown inline when
    // the option is selected); the SDK names the info's element first when both show.
    const extra = document.querySelector<HTMLElement>('[data-testid="service-pay-extra"]');
    const extraShown = !radio.checked && extra?.checkVisibility() === true;
    return {
      kind: "payment_option_markup" as const,
      found: true,
      name: radio.name,
      value: radio.value,
      module_name: radio.dataset.moduleName ?? null,
      has_icon: label?.querySelector("img, svg, picture, [role='img']") != null,
      info_visible: shown !== null,
      extra_visible_unselected: extraShown,
      visible_in: shown
        ? `${shown.localName}${shown.id ? `#${shown.id}` : ""}${[...shown.classList].map((c) => `.${c}`).join("")}`
        : null,
    };
  });
}

test("the SDK's report of the shop's payment option, read as the browser sends it: every markup rule met on the shop's checkout, whose option in tradein_missing has its committed shape; info and extra text shown before selection (re-wrapped by the template) and another data-module-name reported as the page shows them, the option then not recognised and the console saying why, once", async ({
  page,
  sdk,
  shop,
}) => {
  const warnings = sdkWarnings(page);
  const reports = await markupReports(page);
  await shop.startSignedIn(SHOPPER);
  await shop.addToCart("aurora-x1");
  await shop.openCheckout();
  await sdk.ready();
  // tradein_missing: the option is judged in full (contract, Payment option mode).
  await shop.expectServicePayMode("tradein_missing");
  const correct = await expectedReport(page);
  // The shop's markup as the contract asks for it, so every rule is met.
  expect(correct).toEqual({
    kind: "payment_option_markup",
    found: true,
    name: "payment_method",
    value: "service_pay",
    module_name: "servicepay",
    has_icon: true,
    info_visible: false,
    extra_visible_unselected: false,
    visible_in: null,
  });
  expect(await reports.nth(1)).toEqual(correct);
  // The option in this mode, as the shop renders it around the SDK's details.
  const { label } = await sdk.paymentOptionDetails();
  await expectOptionShape("option-tradein_missing", shop.servicePayOption(), label);

  // The same checkout as a careless shop renders it: its info text shown before the shopper asks
  // for it, its extra text shown inline before the option is selected, both re-wrapped by its
  // template (a newline and indentation where the service's text has one space: the shopper
  // sees the same words), and its radio under another module name (set once the option is
  // there, before the SDK looks half a second after the details arrive). Its card option, before
  // the service's, carries a module name of its own, as shops that mark every payment module do:
  // the SDK still reports the radio whose value is the service's.
  const { extra } = await sdk.paymentOptionDetails();
  expect(extra, "tradein_missing has an extra text to show").toBeTruthy();
  reports.drop();
  await page.addInitScript((extraHtml: string) => {
    const rewrap = (element: Element) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        node.textContent = (node.textContent ?? "").replace(/ /g, "\n      ");
      }
    };
    new MutationObserver((_, observer) => {
      const info = document.querySelector('[data-testid="service-pay-info"]');
      const radio = document.querySelector('input[type="radio"][value="service_pay"]');
      if (!info || !radio) return;
      observer.disconnect();
      info.removeAttribute("hidden");
      rewrap(info);
      const shownExtra = document.createElement("p");
      shownExtra.dataset.testid = "service-pay-extra";
      shownExtra.innerHTML = extraHtml;
      rewrap(shownExtra);
      info.after(shownExtra);
      radio.setAttribute("data-module-name", "service");
      document
        .querySelector('input[type="radio"][value="card"]')
        ?.setAttribute("data-module-name", "card");
    }).observe(document, { childList: true, subtree: true });
  }, extra ?? "");
  await page.reload();
  await sdk.ready();
  await shop.expectServicePayMode("tradein_missing");
  await expect(page.getByTestId("service-pay-info")).toBeVisible();
  await expect(page.getByTestId("service-pay-extra")).toBeVisible();
  await expect(shop.cardRadio()).toHaveAttribute("data-module-name", "card");
  await expect(shop.servicePayRadio()).not.toBeChecked();
  const careless = await expectedReport(page);
  expect(careless).toMatchObject({
    module_name: "service",
    info_visible: true,
    extra_visible_unselected: true,
  });
  expect(careless.visible_in).toMatch(/^div#/);
  expect(await reports.nth(2)).toEqual(careless);

  // Chosen, the option is not the service's: the SDK announces no selection, and the console
  // tells the developer both names, once (emulator/e2e/strictness.e2e.ts says the same).
  expect(warnings.seen()).toEqual([]);
  await shop.servicePayRadio().check();
  await expect
    .poll(warnings.seen)
    .toEqual([
      '[service] the payment option is not recognised: its data-module-name is "service", the service\'s module name is "servicepay".',
    ]);
  // A round trip to the service: anything the selection started has had its chance.
  await sdk.paymentOptionDetails();
  expect(
    (await sdk.events()).map((e) => e.name).filter((n) => n.startsWith("servicepay-")),
  ).toEqual([]);
  // In tradein_missing the choice opened the wizard. The shopper closes it and chooses Service
  // Pay again: the console said it once for the page, and says no more.
  await expect(sdk.wizard()).toBeVisible();
  await sdk.closeWizard("escape");
  // Closed without an offer, the option is unchosen again (the shop's, after the details).
  await expect(shop.servicePayRadio()).not.toBeChecked();
  await shop.servicePayRadio().click();
  await expect(sdk.wizard()).toBeVisible();
  await sdk.closeWizard("escape");
  await sdk.paymentOptionDetails();
  expect(warnings.seen()).toEqual([]);
});

test("the SDK's report of a disabled option (tradein_invalid, currency), read as the browser sends it: found with its name, value, module name and icon, its texts not judged though the shop shows both the explanation and the extra text", async ({
  page,
  sdk,
  shop,
}) => {
  const reports = await markupReports(page);
  // A device valued in the shop's currency, then the shop switched to another: the offer is
  // unusable for this cart (Payment option mode, tradein_invalid / currency). No test device
  // and no control API: it runs against a staging service.
  await openCheckoutWith({ page, sdk, shop }, "aurora-x1", "wizard");
  await shop.expectServicePayMode("tradein_valid");
  await reports.nth(1);
  await shop.switchCurrency("GBP");
  // The SDK reports the option once per page: the next page is the disabled option's.
  await page.reload();
  await sdk.ready();
  await shop.expectServicePayDisabled("currency");
  const { info, extra } = await sdk.paymentOptionDetails();
  expect(extra, "the currency template has an extra text to show").toBeTruthy();
  const plain = (html: string) =>
    html
      .replace(/<[^>]+>/g, "")
      .replace(/\s+/g, " ")
      .trim();
  // The shopper reads both texts under the disabled option, as the contract asks ("shown
  // disabled with explanation").
  await expect(shop.servicePayExplanation()).toContainText(plain(info));
  await expect(shop.servicePayExplanation()).toContainText(plain(extra ?? ""));
  // The SDK judges where the texts show only for an option that can be chosen (tradein_valid,
  // tradein_missing): a disabled one is reported with neither judged, whatever the page shows.
  const seen = await expectedReport(page);
  expect(seen).toMatchObject({ found: true, value: "service_pay", module_name: "servicepay" });
  expect(await reports.nth(2)).toEqual({
    ...seen,
    info_visible: false,
    extra_visible_unselected: false,
    visible_in: null,
  });
});
