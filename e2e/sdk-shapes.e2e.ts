// Every SDK surface a shopper reaches on this shop's pages, in each state, has the shape committed
// in e2e/sdk-shapes/ (./support/sdk-shape.ts): its elements, classes, types, roles and words.
// The figures in it are computed here from what the shop knows (its cart as purchase_data gives
// it, the offer the wizard showed, the everyday device's name), never chosen by a fixture, and
// the error states are brought up by the shopper's own browser (page.route on the SDK's calls to
// the service, the page's clock for its time limit): no control API, so every test here also
// runs against a staging service. The shop's pages are English (app/layout.tsx); the last three
// journeys show the SDK on them as another merchant's pages would have it: teasers placed by the
// configuration's selectors and by data-target, and the page in Spanish. Every word of both
// languages, in the SDK's every state, is also the SDK page suite's (emulator/e2e/every-word.e2e.ts).
import type { Locator, Page, Route } from "@playwright/test";
import { SHOPPER } from "./fixtures";
import { expect, test } from "./support/fixtures";
import {
  checkoutWithOwnOffer,
  type PurchaseCart,
  purchaseCart,
  signedInAtHome,
} from "./support/journeys";
import { sdkWarnings } from "./support/sdk-console";
import { expectOptionShape, expectShape, moneyText, type ShapeOptions } from "./support/sdk-shape";
import { EVERYDAY_DEVICE, type ServiceSdkDriver } from "./support/service-sdk-driver";

/** The offer's figures as the shopper reads them: the amount shown by the wizard, the device. */
const offerFigures = (offer: number, locale = "en") => ({
  offer: moneyText(offer, "EUR", locale),
  offerCents: String(offer),
  device: EVERYDAY_DEVICE.model,
});

/** The condition step's questions and answers are the service's catalog, not the SDK's words. */
const SERVICE_QUESTIONS = { serviceText: "fieldset" };
/** The device step's choices after "Choose…" are the service's catalog. */
const SERVICE_CHOICES = { serviceText: "option:not(:first-child)" };

const TEASER_TYPES = ["banner", "product-widget", "cart-summary", "thank-you"] as const;

/** The configuration's selectors of another merchant's page: an element of its own per type. */
const CONFIGURED_SELECTORS = {
  bannerCssSelector: ".merchant-banner",
  productWidgetCssSelector: ".merchant-product-widget",
  cartSummaryCssSelector: ".merchant-cart-summary",
  thankYouCssSelector: ".merchant-thank-you",
};

/** The SDK's call to the service matching `path` (its CORS preflight let through). */
function serviceCall(path: RegExp) {
  return (url: URL) => url.pathname.startsWith("/sdk/v1/") && path.test(url.pathname);
}

/** Answers the SDK's POST/GET to `path` with `status` and the contract's error body. */
async function answerWith(page: Page, path: RegExp, status: number, purpose?: string) {
  await page.route(serviceCall(path), async (route: Route) => {
    const request = route.request();
    if (request.method() === "OPTIONS") return route.fallback();
    if (purpose && request.postDataJSON()?.purpose !== purpose) return route.fallback();
    await route.fulfill({
      status,
      contentType: "application/json",
      headers: { "access-control-allow-origin": "*" },
      body: JSON.stringify({
        error:
          status === 400 ? "invalid_request" : status === 401 ? "unauthorized" : "server_error",
        error_description: `answered ${status} by the test's browser`,
      }),
    });
  });
}

/** The SDK's call to `path` fails as the network does when the shopper is offline. */
async function offline(page: Page, path: RegExp) {
  await page.route(serviceCall(path), (route) =>
    route.request().method() === "OPTIONS" ? route.fallback() : route.abort("internetdisconnected"),
  );
}

/** The SDK's calls to `path` never answered (held until the test ends); resolves when one is. */
async function neverAnswered(page: Page, path: RegExp) {
  let reached: () => void = () => undefined;
  const hit = new Promise<void>((resolve) => {
    reached = resolve;
  });
  await page.route(serviceCall(path), (route) => {
    if (route.request().method() === "OPTIONS") return route.fallback();
    reached();
    // Never fulfilled: the service took the call and never answered it.
  });
  return { hit };
}

async function openWizard(sdk: ServiceSdkDriver) {
  await sdk.teasers("banner").first().getByRole("button").click();
  await expect(sdk.wizard()).toBeVisible();
}

/** Each question answered with its first answer, then Get offer: the offer the wizard shows, in
 *  cents (its [data-offer-value]). */
async function offerForFirstAnswers(wizard: Locator, getOffer: Locator): Promise<number> {
  for (const group of await wizard.getByRole("group").all()) {
    await group.getByRole("radio").first().check();
  }
  await getOffer.click();
  const shown = wizard.locator("[data-offer-value]");
  await expect(shown).toBeVisible();
  return Number(await shown.getAttribute("data-offer-value"));
}

test("the wizard's steps on the shop's home page have their committed shape: each step with its validation, the offer by the wizard's own figure, the answers kept when the shopper goes back from it, and the device chosen when back once more", async ({
  sdk,
  shop,
}) => {
  await signedInAtHome(sdk, shop);
  await openWizard(sdk);
  const wizard = sdk.wizard();
  const problem = wizard.locator(".body p").filter({ hasText: /\w/ }).last();
  await expectShape("wizard-1-device", wizard, {
    ...SERVICE_CHOICES,
    until: wizard.getByLabel("Category"),
  });
  await wizard.getByRole("button", { name: "Next" }).click();
  await expectShape("wizard-1-no-model", wizard, { ...SERVICE_CHOICES, until: problem });
  await wizard.getByLabel("Category").selectOption({ label: EVERYDAY_DEVICE.category });
  await wizard.getByLabel("Model").selectOption({ label: EVERYDAY_DEVICE.model });
  await wizard.getByRole("button", { name: "Next" }).click();
  const getOffer = wizard.getByRole("button", { name: "Get offer" });
  await expectShape("wizard-2-condition", wizard, { ...SERVICE_QUESTIONS, until: getOffer });
  await getOffer.click();
  await expectShape("wizard-2-unanswered", wizard, { ...SERVICE_QUESTIONS, until: problem });
  // Every question is required: with all but one answered, Get offer still asks for the rest,
  // in the same words, and asks the service nothing (its button is not disabled for a request).
  const required = (await problem.textContent()) ?? "";
  const questions = await wizard.getByRole("group").all();
  for (const group of questions.slice(0, -1)) await group.getByRole("radio").first().check();
  await getOffer.click();
  await expect(getOffer).toBeEnabled();
  await expect(problem).toHaveText(required);
  // The figure the service chose, as the wizard shows it; the teasers must agree with it
  // (service-sdk-twice-and-failing.e2e.ts, the accepted trade-in's placements).
  const offer = await offerForFirstAnswers(wizard, getOffer);
  expect(offer).toBeGreaterThan(0);
  await expectShape("wizard-3-offer", wizard, { figures: offerFigures(offer) });
  // The shopper goes back from the offer: the condition step keeps the answers given, each
  // group's first, and no other; asked again, the offer step comes back.
  await wizard.getByRole("button", { name: "Back" }).click();
  await expect(getOffer).toBeVisible();
  for (const group of await wizard.getByRole("group").all()) {
    const radios = group.getByRole("radio");
    await expect(radios.first()).toBeChecked();
    for (const other of (await radios.all()).slice(1)) await expect(other).not.toBeChecked();
  }
  // Back once more, to the device step: the category and model chosen are still chosen, and Next
  // leads to the same questions, answered as before, so Get offer brings the offer back.
  await wizard.getByRole("button", { name: "Back" }).click();
  await expect(wizard.getByLabel("Category").locator("option:checked")).toHaveText(
    EVERYDAY_DEVICE.category,
  );
  await expect(wizard.getByLabel("Model").locator("option:checked")).toHaveText(
    EVERYDAY_DEVICE.model,
  );
  await wizard.getByRole("button", { name: "Next" }).click();
  await getOffer.click();
  await expect(wizard.locator("[data-offer-value]")).toBeVisible();
  await sdk.acceptOffer();
});

/** The payment window's figures, by formula from the shop's cart and the offer. */
function windowFigures(cart: PurchaseCart, offer: number, locale = "en") {
  const money = (cents: number) => moneyText(cents, cart.currency, locale);
  const discount = Math.min(offer, cart.total);
  return {
    cartTotal: money(cart.total),
    discount: `−${money(discount)}`,
    leftToPay: money(cart.total - discount),
    device: EVERYDAY_DEVICE.model,
    // Every row has one shape; which rows, with which figures, is checked row by row below.
    item: cart.items.map((item) => item.name),
    itemTotal: cart.items.map((item) => money(item.total)),
  };
}

/** The window's rows are the cart's, each line's quantity and total by formula. */
async function expectWindowRows(sdk: ServiceSdkDriver, cart: PurchaseCart) {
  expect(await sdk.paymentItems()).toEqual(
    cart.items.map((item) => ({
      name: item.name,
      quantity: String(item.quantity),
      total: moneyText(item.total, cart.currency),
    })),
  );
  // Figures line up at the end of their column, as on any bill: the window's own look reaches
  // the shopper (its stylesheet), each quantity and amount cell.
  const alignments = await sdk
    .paymentModal()
    .locator("tbody tr")
    .evaluateAll((rows) =>
      rows.flatMap((row) =>
        [...row.querySelectorAll("td")].slice(1).map((cell) => getComputedStyle(cell).textAlign),
      ),
    );
  expect(alignments).toEqual(cart.items.flatMap(() => ["end", "end"]));
}

test("the wizard's error states on the shop's pages, brought up by the shopper's browser, have their committed shape and words and close by their own Close button: logged out, shopper_data answered 401, the catalog answered 500, 401, offline, and never answered past the SDK's time limit on the page's clock", async ({
  page,
  sdk,
  shop,
}) => {
  await page.clock.install();
  await page.goto("/");
  await sdk.ready();
  await openWizard(sdk);
  const actions = sdk.wizard().locator(".body .actions");
  // Each message's own Close button, below it (the dialog's × is another), is what a shopper
  // who has read it presses.
  const closeByItsButton = async () => {
    await actions.getByRole("button", { name: "Close" }).click();
    await expect(sdk.wizard()).toBeHidden();
  };
  await expectShape("wizard-login", sdk.wizard(), { until: actions });
  await closeByItsButton();

  // Signed in as the shopper does, through the shop's form (the browser has a session already).
  await shop.login(SHOPPER);
  // The signed-in page's own start-up ends first: one still asking for shopper_data when the
  // route below is set would be answered 401 and go on to an anonymous init of its own.
  await sdk.ready();
  // A shop whose session lapsed answers shopper_data 401: the SDK takes that shopper for an
  // anonymous one, as for 404 (contract, Merchant endpoints): its start-up goes on to the
  // service's init (an anonymous session), and the wizard asks to log in.
  await page.route("**/api/service/shopper_data", (route) =>
    route.fulfill({ status: 401, contentType: "application/json", body: "{}" }),
  );
  // That 401 is this browser's, not the shop's: the SDK's report of it must not reach the
  // go-live readiness report (readiness.e2e.ts judges the shop's shopper_data by it).
  await page.route(serviceCall(/\/observations/), (route) => route.abort());
  // Counted by its anonymous session (the signed-in page's init carried the shopper's hash).
  let inits = 0;
  page.on("request", (request) => {
    if (request.method() !== "POST" || new URL(request.url()).pathname !== "/sdk/v1/init") return;
    if (request.postDataJSON()?.session_hash === null) inits += 1;
  });
  await page.goto("/");
  await sdk.ready();
  // service-ready follows the start-up's init, or its giving up.
  expect(inits, "the start-up went on to the service's init").toBe(1);
  await openWizard(sdk);
  await expectShape("wizard-login", sdk.wizard(), { until: actions });
  await closeByItsButton();
  // The observations stay off until the next page replaces this one (the loop's unrouteAll).
  await page.unroute("**/api/service/shopper_data");
  const catalog = /\/catalog$/;
  for (const fault of [
    () => answerWith(page, catalog, 500),
    () => answerWith(page, catalog, 401),
    () => offline(page, catalog),
  ]) {
    await page.goto("/");
    await sdk.ready();
    await fault();
    await openWizard(sdk);
    await expectShape("wizard-failed", sdk.wizard(), { until: actions });
    await closeByItsButton();
    await page.unrouteAll();
  }
  await page.goto("/");
  await sdk.ready();
  const held = await neverAnswered(page, catalog);
  await openWizard(sdk);
  await held.hit;
  await page.clock.fastForward(30_000);
  await expectShape("wizard-timed-out", sdk.wizard(), { until: actions });
  await closeByItsButton();
});

test("the payment window on the shop's checkout has its committed shape, every figure by formula from the shop's cart and the offer, and so have its error states, brought up by the shopper's browser: opening answered 500, the cart refused 400 with the contract's error body and without it (the console's words for each), purchase_data's empty cart, a cart in another currency than the offer's that Service Pay cannot pay (and the chosen option in tradein_valid), paying answered 500, 401, offline, refused 400, paying, and never answered past the SDK's time limit on the page's clock", async ({
  page,
  sdk,
  shop,
}) => {
  await page.clock.install();
  const warnings = sdkWarnings(page);
  const offer = await checkoutWithOwnOffer(sdk, shop);
  const { label } = await sdk.paymentOptionDetails();
  // The option chosen in tradein_valid, its extra text shown (contract, Payment option mode).
  await expect(page.getByTestId("service-pay-extra")).toBeVisible();
  await expectOptionShape("option-tradein_valid-chosen", shop.servicePayOption(), label);
  const modal = sdk.paymentModal();
  const option = /\/payment-option$/;
  /** Opens the window again; its state by its own title, not the last opening's: a window
   *  opened again shows the previous body until the service answers. */
  const reopen = async (
    name: string,
    title: string,
    options: ShapeOptions = {},
    andThen?: () => Promise<void>,
  ) => {
    await shop.placeOrder();
    await expectShape(name, modal, {
      ...options,
      until: modal.locator(".body h3", { hasText: title }),
    });
    await andThen?.();
    // Each close says so once, with a message (Contract, SDK browser events: service-modal-closed
    // for the valuation or the payment modal, an object with message).
    const closed = await sdk.eventCount("service-modal-closed");
    await sdk.closePaymentModal();
    await expect.poll(() => sdk.eventCount("service-modal-closed")).toBe(closed + 1);
    const said = (await sdk.events()).filter((event) => event.name === "service-modal-closed");
    expect(said.at(-1)?.detail).toEqual(
      expect.objectContaining({ message: expect.stringMatching(/\w/) }),
    );
    await page.unrouteAll();
  };
  await answerWith(page, option, 500, "payment");
  await reopen("payment-open-failed", "Something went wrong");
  expect(warnings.seen()).toEqual([]);
  // The service's reason for refusing the cart is the developer's, in the console.
  await answerWith(page, option, 400, "payment");
  await reopen("payment-rejected", "cannot be used", {}, () =>
    expect
      .poll(warnings.seen)
      .toEqual(["[service] purchase_data refused: answered 400 by the test's browser"]),
  );
  // A 400 without the contract's error body (a proxy's page in between): the console still
  // names the status, and nothing more.
  await page.route(serviceCall(option), (route) =>
    route.request().method() === "OPTIONS"
      ? route.fallback()
      : route.fulfill({
          status: 400,
          contentType: "text/html",
          headers: { "access-control-allow-origin": "*" },
          body: "<html><body>Bad Request</body></html>",
        }),
  );
  // The window looks as before: the console's words are what tell this opening's answer.
  await reopen("payment-rejected", "cannot be used", {}, () =>
    expect.poll(warnings.seen).toEqual(["[service] purchase_data refused: 400"]),
  );
  // The shop never opens a payment for an empty cart; a purchase_data answering the contract's
  // empty cart ({ "purchase": null }) still gets its own words from the SDK.
  await page.route("**/api/service/purchase_data", (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body: '{"purchase":null}' }),
  );
  await reopen("payment-empty-cart", "Your cart is empty");
  // A cart Service Pay cannot pay: purchase_data as the browser reads it, the shop's own cart in
  // another currency than the offer's (the shop itself keeps the cart's currency while a payment
  // is open). The service's details are then not tradein_valid, and the window says Service Pay
  // cannot be used, with the service's explanation: the one its details give for that cart.
  await page.route("**/api/service/purchase_data", async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { purchase: { cart: { currency: string } } };
    body.purchase.cart.currency = "GBP";
    await route.fulfill({ response, json: body });
  });
  await reopen("payment-cannot-pay", "cannot be used", { serviceText: ".body p" }, async () => {
    const details = await sdk.paymentOptionDetails();
    expect(details.mode).toBe("tradein_invalid");
    const explanation = await page.evaluate(
      (html) => new DOMParser().parseFromString(html, "text/html").body.textContent ?? "",
      details.info,
    );
    await expect(modal.locator(".body p")).toHaveText(explanation);
  });
  await shop.placeOrder();
  const cart = await purchaseCart(page);
  const figures = windowFigures(cart, offer);
  await expectShape("payment-summary", modal, {
    figures,
    until: modal.locator('[data-amount="left-to-pay"]'),
  });
  await expectWindowRows(sdk, cart);
  // The shop's own checkout agrees with the window's left to pay.
  expect(await page.getByTestId("checkout-total").textContent()).toBe(figures.leftToPay);

  const start = /\/payments$/;
  const failure = modal.locator(".body p span");
  for (const fault of [
    () => answerWith(page, start, 500),
    () => answerWith(page, start, 401),
    () => offline(page, start),
  ]) {
    await fault();
    await sdk.pressPayNow();
    await expectShape("payment-failed", modal, { figures, until: failure });
    await page.unrouteAll();
  }
  // Paying refused 400 with the contract's error body (the service's checks of the purchase):
  // the window says Service Pay cannot be used for this cart, as when opening was refused, and
  // the service's reason is the developer's, in the console. Opened again, the summary is back.
  warnings.seen();
  await answerWith(page, start, 400);
  await sdk.pressPayNow();
  await expectShape("payment-rejected", modal, {
    until: modal.locator(".body h3", { hasText: "cannot be used" }),
  });
  await expect
    .poll(warnings.seen)
    .toEqual(["[service] purchase_data refused: answered 400 by the test's browser"]);
  await sdk.closePaymentModal();
  await page.unrouteAll();
  await shop.placeOrder();
  await expectShape("payment-summary", modal, {
    figures,
    until: modal.locator('[data-amount="left-to-pay"]'),
  });
  const held = await neverAnswered(page, start);
  await sdk.pressPayNow();
  await held.hit;
  await expectShape("payment-paying", modal, { figures });
  await page.clock.fastForward(30_000);
  await expectShape("payment-timed-out", modal, { figures, until: failure });
});

/** Another merchant's configuration: the shop's own, with the four teaser selectors added as the
 *  page sets it, before the SDK reads it (Contract, Front-end SDK › Configuration object). */
async function configureSelectors(page: Page) {
  await page.addInitScript((selectors) => {
    let configuration: unknown;
    Object.defineProperty(window, "serviceConfiguration", {
      configurable: true,
      get: () => configuration,
      set: (value: Record<string, unknown>) => {
        configuration = { ...value, ...selectors };
      },
    });
  }, CONFIGURED_SELECTORS);
}

/** Another merchant's markup, rendered after the SDK started (a single-page app's next page):
 *  per type an element its configuration's selector names, and a marker whose data-target is a
 *  slot of its own; then two markers whose data-target matches nothing or is no CSS. */
async function placeMerchantsMarkup(page: Page): Promise<Locator> {
  await page.evaluate((types) => {
    const section = document.createElement("section");
    section.id = "another-merchants-markup";
    for (const type of types) {
      // The merchant's element has content of its own (a heading): the teaser goes beside it.
      const own = document.createElement("div");
      own.className = `merchant-${type}`;
      own.innerHTML = "<h3>Trade in</h3>";
      const slot = document.createElement("div");
      slot.id = `slot-${type}`;
      const marker = document.createElement("div");
      marker.className = "service-teaser";
      marker.dataset.type = type;
      marker.dataset.target = `#slot-${type}`;
      section.append(own, slot, marker);
    }
    const wrongTargets: [string, string][] = [
      ["lost", "#no-such-slot"],
      ["typo", "[[not css"],
    ];
    for (const [id, target] of wrongTargets) {
      const marker = document.createElement("div");
      marker.className = "service-teaser";
      marker.dataset.type = "banner";
      marker.dataset.target = target;
      marker.id = id;
      section.append(marker);
    }
    document.body.append(section);
  }, TEASER_TYPES);
  return page.locator("#another-merchants-markup");
}

/** The teaser in one of another merchant's places: `.merchant-<type>` (by the configuration's
 *  selector) or `#slot-<type>` (by a marker's data-target). */
const placedTeaser = (markup: Locator, place: string) =>
  markup.locator(`${place} > [data-service-teaser]`);

test("teasers placed as another merchant's page places them, on the shop's home page: each type by the configuration's CSS selector and by a marker's data-target, in its committed shape; a data-target that matches nothing, or is no CSS, places none and the console says so once", async ({
  page,
  sdk,
}) => {
  // This shop places markers whose room its CSS reserves; a merchant may instead name its own
  // elements in the configuration (the four *CssSelector settings) or point a marker at another
  // element (data-target). Contract, Front-end SDK › Teasers.
  await configureSelectors(page);
  const warnings = sdkWarnings(page);
  await page.goto("/");
  await sdk.ready();
  const markup = await placeMerchantsMarkup(page);
  for (const type of TEASER_TYPES) {
    for (const place of [`.merchant-${type}`, `#slot-${type}`]) {
      const teaser = placedTeaser(markup, place);
      await expect(teaser, `${type} at ${place}`).toHaveCount(1);
      await expectShape(`teaser-${type}-cta`, teaser);
    }
  }
  // A marker with a data-target holds no teaser itself, nor does one whose target is missing.
  await expect(markup.locator(".service-teaser > *")).toHaveCount(0);
  await expect(markup.locator("[data-service-teaser]")).toHaveCount(TEASER_TYPES.length * 2);
  expect(warnings.seen()).toEqual([
    "[service] a data-target is not a CSS selector, so no teaser goes there: [[not css",
  ]);
});

/** A Spanish merchant's pages: the shop's own, their root element `lang="es"` from the moment
 *  the parser makes it, before any script, so the SDK speaks the page's language (Contract,
 *  Front-end SDK: the SDK's texts in the page's language; this shop's pages are English). */
async function inSpanish(page: Page) {
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.documentElement) return;
      document.documentElement.lang = "es";
      observer.disconnect();
    }).observe(document, { childList: true });
  });
}

/** The SDK's Spanish names of the dialogs and buttons the shopper uses (its message table,
 *  emulator/sdk/format.ts); every other word is in the committed shapes (e2e/sdk-shapes/es/). */
const SPANISH = {
  wizardTitle: "Tasación de tu dispositivo",
  calculate: "Calcular descuento",
  close: "Cerrar",
  category: "Categoría",
  model: "Modelo",
  next: "Siguiente",
  getOffer: "Ver oferta",
  accept: "Aceptar oferta",
  payTitle: "Pagar con Service",
  payNow: "Pagar ahora",
};
const es = (word: keyof typeof SPANISH) => SPANISH[word];

test("a Spanish merchant's page: the SDK's teasers and wizard speak Spanish in their committed shapes, in every state: each teaser type's call to action and offer, the wizard's login prompt, its steps with their validation and its offer by the wizard's own figure", async ({
  page,
  sdk,
  shop,
}) => {
  await inSpanish(page);
  await configureSelectors(page);
  await page.goto("/");
  await sdk.ready();
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  let markup = await placeMerchantsMarkup(page);
  for (const type of TEASER_TYPES) {
    await expectShape(`es/teaser-${type}-cta`, placedTeaser(markup, `.merchant-${type}`));
  }
  const wizard = page.getByRole("dialog", { name: es("wizardTitle") });
  const actions = wizard.locator(".body .actions");
  const open = async () => {
    await sdk
      .teasers("banner")
      .first()
      .getByRole("button", { name: es("calculate") })
      .click();
    await expect(wizard).toBeVisible();
  };
  const closeByItsButton = async () => {
    await actions.getByRole("button", { name: es("close") }).click();
    await expect(wizard).toBeHidden();
  };
  await open();
  await expectShape("es/wizard-login", wizard, { until: actions });
  await closeByItsButton();

  // Signed in through the shop's form; the failures' and the time limit's words are the payment
  // window's too (the next journey), so the wizard's are read in English only (above).
  await shop.login(SHOPPER);
  await page.goto("/");
  await sdk.ready();
  await open();
  const problem = wizard.locator(".body p").filter({ hasText: /\w/ }).last();
  await expectShape("es/wizard-1-device", wizard, {
    ...SERVICE_CHOICES,
    until: wizard.getByLabel(es("category")),
  });
  const next = wizard.getByRole("button", { name: es("next") });
  await next.click();
  await expectShape("es/wizard-1-no-model", wizard, { ...SERVICE_CHOICES, until: problem });
  await wizard.getByLabel(es("category")).selectOption({ label: EVERYDAY_DEVICE.category });
  await wizard.getByLabel(es("model")).selectOption({ label: EVERYDAY_DEVICE.model });
  await next.click();
  const getOffer = wizard.getByRole("button", { name: es("getOffer") });
  await expectShape("es/wizard-2-condition", wizard, { ...SERVICE_QUESTIONS, until: getOffer });
  await getOffer.click();
  await expectShape("es/wizard-2-unanswered", wizard, { ...SERVICE_QUESTIONS, until: problem });
  const figures = offerFigures(await offerForFirstAnswers(wizard, getOffer), "es");
  await expectShape("es/wizard-3-offer", wizard, { figures });
  await wizard.getByRole("button", { name: es("accept") }).click();
  await expect(wizard).toBeHidden();
  markup = await placeMerchantsMarkup(page);
  await expectShape("es/teaser-banner-offer", sdk.teasers("banner").first(), { figures });
  for (const type of TEASER_TYPES) {
    await expectShape(`es/teaser-${type}-offer`, placedTeaser(markup, `.merchant-${type}`), {
      figures,
    });
  }
});

test("a Spanish merchant's checkout: the payment window speaks Spanish in its committed shapes, every figure by formula from the shop's cart and the offer, in every state with words of its own: the cart refused, an empty cart, the summary, paying failed, paying and its time limit", async ({
  page,
  sdk,
  shop,
}) => {
  await page.clock.install();
  const offer = await checkoutWithOwnOffer(sdk, shop);
  // The checkout again, as a Spanish merchant's page.
  await inSpanish(page);
  await page.reload();
  await sdk.ready();
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await shop.servicePayRadio().check();
  const modal = page.getByRole("dialog", { name: es("payTitle") });
  const option = /\/payment-option$/;
  /** Opens the window again; its state by its own title (see the English journey above). */
  const reopen = async (name: string, title: string, options: ShapeOptions = {}) => {
    await shop.placeOrder();
    await expectShape(name, modal, {
      ...options,
      until: modal.locator(".body h3", { hasText: title }),
    });
    await modal
      .getByRole("button", { name: es("close") })
      .first()
      .click();
    await expect(modal).toBeHidden();
    await page.unrouteAll();
  };
  // Opening failed and a cart Service Pay cannot pay show words the states below show too.
  await answerWith(page, option, 400, "payment");
  await reopen("es/payment-rejected", "no se puede usar");
  await page.route("**/api/service/purchase_data", (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body: '{"purchase":null}' }),
  );
  await reopen("es/payment-empty-cart", "Tu carrito está vacío");
  await shop.placeOrder();
  const cart = await purchaseCart(page);
  const figures = windowFigures(cart, offer, "es");
  await expectShape("es/payment-summary", modal, {
    figures,
    until: modal.locator('[data-amount="left-to-pay"]'),
  });
  const payNow = modal.getByRole("button", { name: es("payNow") });
  await answerWith(page, /\/payments$/, 500);
  await payNow.click();
  await expectShape("es/payment-failed", modal, { figures, until: modal.locator(".body p span") });
  await page.unrouteAll();
  const held = await neverAnswered(page, /\/payments$/);
  await payNow.click();
  await held.hit;
  await expectShape("es/payment-paying", modal, { figures });
  await page.clock.fastForward(30_000);
  await expectShape("es/payment-timed-out", modal, {
    figures,
    until: modal.locator(".body p span"),
  });
});
