// Every SDK surface a shopper reaches on this shop's pages, in each state, has the shape committed
// in e2e/sdk-shapes/ (./support/sdk-shape.ts): its elements, classes, types, roles and words.
// The figures in it are computed here from what the shop knows (its cart as purchase_data gives
// it, the offer the wizard showed, the everyday device's name), never chosen by a fixture, and
// the error states are brought up by the shopper's own browser (page.route on the SDK's calls to
// the service, the page's clock for its time limit): no control API, so every test here also
// runs against a staging service. The shop's pages are English only (app/layout.tsx), so the
// SDK's Spanish words are the SDK page suite's (emulator/e2e/every-word.e2e.ts).
import type { Page, Route } from "@playwright/test";
import { SHOPPER } from "./fixtures";
import { expect, test } from "./support/fixtures";
import { expectShape, moneyText } from "./support/sdk-shape";
import { EVERYDAY_DEVICE, type ServiceSdkDriver } from "./support/service-sdk-driver";
import type { ShopSteps } from "./support/shop";

type Cart = {
  currency: string;
  total: number;
  items: { name: string; quantity: number; total: number }[];
};

/** The shop's cart as the SDK reads it: purchase_data from the page, with the shopper's cookie. */
async function purchaseCart(page: Page): Promise<Cart> {
  const body = await page.evaluate(async () => {
    const response = await fetch("/api/service/purchase_data", { credentials: "same-origin" });
    return response.json();
  });
  return (body as { purchase: { cart: Cart } }).purchase.cart;
}

/** The offer's figures as the shopper reads them: the amount shown by the wizard, the device. */
const offerFigures = (offer: number) => ({
  offer: moneyText(offer, "EUR"),
  offerCents: String(offer),
  device: EVERYDAY_DEVICE.model,
});

/** The condition step's questions and answers are the service's catalog, not the SDK's words. */
const SERVICE_QUESTIONS = { serviceText: "fieldset" };
/** The device step's choices after "Choose…" are the service's catalog. */
const SERVICE_CHOICES = { serviceText: "option:not(:first-child)" };

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

test("the teasers and the wizard's steps on the shop's pages have their committed shape: the banner's call to action, each step with its validation, the offer by the wizard's own figure, each placement with the accepted offer", async ({
  page,
  sdk,
  shop,
}) => {
  await shop.startSignedIn(SHOPPER);
  await page.goto("/");
  await sdk.ready();
  await expectShape("teaser-banner-cta", sdk.teasers("banner").first());
  await openWizard(sdk);
  const wizard = sdk.wizard();
  await expect(wizard.getByLabel("Category")).toBeVisible();
  await expectShape("wizard-1-device", wizard, SERVICE_CHOICES);
  await wizard.getByRole("button", { name: "Next" }).click();
  await expect(wizard.getByRole("alert")).not.toBeEmpty();
  await expectShape("wizard-1-no-model", wizard, SERVICE_CHOICES);
  await wizard.getByLabel("Category").selectOption({ label: EVERYDAY_DEVICE.category });
  await wizard.getByLabel("Model").selectOption({ label: EVERYDAY_DEVICE.model });
  await wizard.getByRole("button", { name: "Next" }).click();
  const getOffer = wizard.getByRole("button", { name: "Get offer" });
  await expect(getOffer).toBeVisible();
  await expectShape("wizard-2-condition", wizard, SERVICE_QUESTIONS);
  await getOffer.click();
  await expect(wizard.getByRole("alert")).not.toBeEmpty();
  await expectShape("wizard-2-unanswered", wizard, SERVICE_QUESTIONS);
  for (const group of await wizard.getByRole("group").all()) {
    await group.getByRole("radio").first().check();
  }
  await getOffer.click();
  const shown = wizard.locator("[data-offer-value]");
  await expect(shown).toBeVisible();
  // The figure the service chose, as the wizard shows it; every later surface must agree.
  const offer = Number(await shown.getAttribute("data-offer-value"));
  expect(offer).toBeGreaterThan(0);
  await expectShape("wizard-3-offer", wizard, { figures: offerFigures(offer) });
  await sdk.acceptOffer();
  await expectShape("teaser-banner-offer", sdk.teasers("banner").first(), {
    figures: offerFigures(offer),
  });
  await page.goto("/products/aurora-x1");
  await sdk.ready();
  await expectShape("teaser-product-widget-offer", sdk.teasers("product-widget").first(), {
    figures: offerFigures(offer),
  });
});

/** Signed in, the everyday device valued and accepted from the banner, `slug` in the cart, the
 *  checkout open with Service Pay chosen. Returns the offer the wizard showed. */
async function checkoutWithOffer(sdk: ServiceSdkDriver, shop: ShopSteps, slug = "aurora-x1") {
  await shop.startSignedIn(SHOPPER);
  await shop.page.goto("/");
  await sdk.ready();
  await sdk.openWizardFromTeaser("banner");
  const offer = await sdk.valueAndAccept(EVERYDAY_DEVICE.category, EVERYDAY_DEVICE.model);
  await shop.addToCart(slug);
  await shop.openCheckout();
  await sdk.ready();
  await shop.expectServicePayMode("tradein_valid");
  await shop.servicePayRadio().check();
  return offer;
}

/** The payment window's figures, by formula from the shop's cart and the offer. */
function windowFigures(cart: Cart, offer: number) {
  const money = (cents: number) => moneyText(cents, cart.currency);
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
async function expectWindowRows(sdk: ServiceSdkDriver, cart: Cart) {
  expect(await sdk.paymentItems()).toEqual(
    cart.items.map((item) => ({
      name: item.name,
      quantity: String(item.quantity),
      total: moneyText(item.total, cart.currency),
    })),
  );
}

test("the payment window on the shop's checkout has its committed shape, every figure by formula from the shop's cart and the offer; paying, then the thank-you teaser on the confirmation", async ({
  page,
  sdk,
  shop,
}) => {
  const offer = await checkoutWithOffer(sdk, shop);
  await expectShape("teaser-cart-summary-offer", sdk.teasers("cart-summary").first(), {
    figures: offerFigures(offer),
  });
  await shop.placeOrder();
  const cart = await purchaseCart(page);
  const figures = windowFigures(cart, offer);
  // The shop's own checkout agrees with the window's left to pay.
  expect(await page.getByTestId("checkout-total").textContent()).toBe(figures.leftToPay);
  await expect(sdk.paymentModal().locator('[data-amount="left-to-pay"]')).toBeVisible();
  await expectShape("payment-summary", sdk.paymentModal(), { figures });
  await expectWindowRows(sdk, cart);
  // The completion held until the "paying" state is read, then let through.
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(serviceCall(/\/payments\/[^/]+\/complete$/), async (route) => {
    if (route.request().method() !== "OPTIONS") await released;
    await route.fallback();
  });
  await sdk.pressPayNow();
  await expect(sdk.paymentStatus()).not.toBeEmpty();
  await expectShape("payment-paying", sdk.paymentModal(), { figures });
  release();
  await page.waitForURL((url) => url.pathname === "/checkout/confirmation");
  await sdk.ready();
  await expectShape("teaser-thank-you-cta", sdk.teasers("thank-you").first());
});

test("the wizard's error states on the shop's pages, brought up by the shopper's browser, have their committed shape and words: logged out, the catalog answered 500, 401, offline, and never answered past the SDK's time limit on the page's clock", async ({
  page,
  sdk,
  shop,
}) => {
  await page.clock.install();
  await page.goto("/");
  await sdk.ready();
  await openWizard(sdk);
  await expectShape("wizard-login", sdk.wizard());
  await sdk.closeWizard();

  // Signed in as the shopper does, through the shop's form (the browser has a session already).
  await shop.login(SHOPPER);
  const catalog = /\/catalog$/;
  for (const [status, name] of [
    [500, "wizard-failed"],
    [401, "wizard-failed"],
  ] as const) {
    await page.goto("/");
    await sdk.ready();
    await answerWith(page, catalog, status);
    await openWizard(sdk);
    await expect(sdk.wizard().getByRole("alert")).toBeVisible();
    await expectShape(name, sdk.wizard());
    await sdk.closeWizard();
    await page.unrouteAll();
  }
  await page.goto("/");
  await sdk.ready();
  await offline(page, catalog);
  await openWizard(sdk);
  await expect(sdk.wizard().getByRole("alert")).toBeVisible();
  await expectShape("wizard-failed", sdk.wizard());
  await sdk.closeWizard();
  await page.unrouteAll();

  await page.goto("/");
  await sdk.ready();
  const held = await neverAnswered(page, catalog);
  await openWizard(sdk);
  await held.hit;
  await page.clock.fastForward(30_000);
  await expect(sdk.wizard().getByRole("alert")).toBeVisible();
  await expectShape("wizard-timed-out", sdk.wizard());
});

test("the payment window's error states on the shop's checkout, brought up by the shopper's browser, have their committed shape and words: opening answered 500, the cart refused 400 with the contract's error body, paying answered 500, 401, offline, and never answered past the SDK's time limit on the page's clock", async ({
  page,
  sdk,
  shop,
}) => {
  await page.clock.install();
  const offer = await checkoutWithOffer(sdk, shop);
  const option = /\/payment-option$/;
  for (const [status, name, title] of [
    [500, "payment-open-failed", "Something went wrong. Please try again."],
    [400, "payment-rejected", "Service Pay cannot be used for this order."],
  ] as const) {
    await answerWith(page, option, status, "payment");
    await shop.placeOrder();
    // Its own title, not the last opening's: a window opened again shows the previous body until
    // the service answers.
    await expect(sdk.paymentModal().getByRole("alert")).toHaveText(title);
    await expectShape(name, sdk.paymentModal());
    await sdk.closePaymentModal();
    await page.unrouteAll();
  }
  await shop.placeOrder();
  await expect(sdk.paymentModal().locator('[data-amount="left-to-pay"]')).toBeVisible();
  const figures = windowFigures(await purchaseCart(page), offer);
  const start = /\/payments$/;
  for (const fault of ["500", "401", "offline"] as const) {
    if (fault === "offline") await offline(page, start);
    else await answerWith(page, start, Number(fault));
    await sdk.pressPayNow();
    await expect(sdk.paymentStatus().locator(".error")).toBeVisible();
    await expectShape("payment-failed", sdk.paymentModal(), { figures });
    await page.unrouteAll();
  }
  const held = await neverAnswered(page, start);
  await sdk.pressPayNow();
  await held.hit;
  await page.clock.fastForward(30_000);
  await expect(sdk.paymentStatus().locator(".error")).toBeVisible();
  await expectShape("payment-timed-out", sdk.paymentModal(), { figures });
});
