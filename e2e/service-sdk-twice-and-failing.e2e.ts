// The SDK release suite's contract-derived checks from the shopper's seat (the fine-grained table
// of every action done twice and every call failing is at the top of
// emulator/e2e/twice-and-failing.e2e.ts; these are the rows whose truth lives in the shop's pages):
// - "Pay now" pressed twice (double click, Enter twice): one payment start and completion, one
//   service-ready-to-place-order, one service-payment-completed, one order in the shop.
// - The payment's start or completion failing (an error status, or no answer): no success event,
//   no success text, no confirmation page, the shop's order not paid and the cart still there;
//   "Pay now" again after the fault pays exactly once.
// - Every amount the payment window shows computed here from the shop's cart (purchase_data, as
//   the SDK fetches it) and the trade-in, with Intl in the page's locale and the cart's currency:
//   each line's total, the cart total, the discount = min(trade-in, cart total), left to pay =
//   total − discount (Contract, What the service does (4); all money in integer cents).
// - Every teaser placement shows its own type's words (Contract, Front-end SDK › Teasers).
// The tests without @emulator use only what a browser sees (its network included), so they also
// run against a staging service; the @emulator ones add the service's side (faults, orders).
import type { Locator, Page, Route } from "@playwright/test";
import { sessionHashOf } from "./support/emulator";
import { expect, test } from "./support/fixtures";
import {
  checkoutWithOwnOffer,
  type PurchaseCart,
  payByCard,
  purchaseCart,
  signedInAtHome,
} from "./support/journeys";
import { sdkWarnings } from "./support/sdk-console";
import { expectShape, expectTeaserLook } from "./support/sdk-shape";
import {
  EVERYDAY_DEVICE,
  type ServiceSdkDriver,
  type TeaserType,
} from "./support/service-sdk-driver";
import type { ShopSteps } from "./support/shop";
import { storedOrderOfCart } from "./support/shop-db";

const START = /^POST \/sdk\/v1\/payments$/;
const COMPLETE = /^POST \/sdk\/v1\/payments\/[^/]+\/complete$/;
const FAILED = "Something went wrong. Please try again.";

/** Every amount of the payment window, by formula from the cart and the trade-in. */
async function expectWindowAmounts(sdk: ServiceSdkDriver, cart: PurchaseCart, tradeIn: number) {
  const lang = await sdk.page.evaluate(() => document.documentElement.lang || "en");
  const money = (cents: number) =>
    new Intl.NumberFormat(lang, { style: "currency", currency: cart.currency }).format(cents / 100);
  const discount = Math.min(tradeIn, cart.total);
  expect(await sdk.paymentItems()).toEqual(
    cart.items.map((item) => ({
      name: item.name,
      quantity: String(item.quantity),
      total: money(item.total),
    })),
  );
  expect(await sdk.paymentAmounts()).toEqual({
    cartTotal: money(cart.total),
    tradeInDiscount: `−${money(discount)}`,
    leftToPay: money(cart.total - discount),
  });
}

/** Signed in, the everyday device valued and accepted from the home page's banner (no control
 *  API), `slug` in the cart, the checkout open with Service Pay chosen and the order placed. */
async function toPaymentWindow(sdk: ServiceSdkDriver, shop: ShopSteps, slug = "aurora-x1") {
  const offer = await checkoutWithOwnOffer(sdk, shop, slug);
  await shop.placeOrder();
  await expect(sdk.paymentModal()).toBeVisible();
  return offer;
}

/** The detail of the tab's first `name` event (ready-to-place-order, payment-completed). */
async function detailOf(sdk: ServiceSdkDriver, name: string) {
  const entry = (await sdk.eventLog()).find((e) => e.name === name);
  expect(entry, `${name} was dispatched`).toBeDefined();
  return (entry?.detail ?? {}) as { cart_id: string; order_id: string };
}

const countOf = async (sdk: ServiceSdkDriver, name: string) =>
  (await sdk.eventLog()).filter((e) => e.name === name).length;

test("Pay now double-clicked: one payment start and completion, one event of each kind, one order; the window's amounts by formula from the shop's cart (EUR)", async ({
  page,
  sdk,
  shop,
}) => {
  const offer = await toPaymentWindow(sdk, shop);
  await expectWindowAmounts(sdk, await purchaseCart(page), offer);
  // And what the shop's own checkout says is left to pay, behind the window.
  expect((await sdk.paymentAmounts()).leftToPay).toBe(
    await page.getByTestId("checkout-total").textContent(),
  );
  const calls = sdk.recordServiceCalls();
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/checkout/confirmation"),
    sdk.pressPayNowTwice("double-click"),
  ]);
  await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
  expect(await countOf(sdk, "service-ready-to-place-order")).toBe(1);
  expect(await countOf(sdk, "service-payment-completed")).toBe(1);
  expect(calls.count(START)).toBe(1);
  expect(calls.count(COMPLETE)).toBe(1);
  // The shop's one order of the cart is the service's one order.
  const completed = await detailOf(sdk, "service-payment-completed");
  expect(storedOrderOfCart(completed.cart_id)).toMatchObject({
    serviceOrderId: completed.order_id,
  });
});

test("GBP, Pay now pressed with Enter twice: one start in the service's journal, one order there and in the shop; the window's amounts by formula @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  const tradeIn = 12_345;
  await shop.startSignedIn();
  await page.goto("/products/aurora-x1");
  await shop.switchCurrency("GBP");
  await emulator.createTradeIn({
    session_hash: await sessionHashOf(page),
    value: tradeIn,
    currency: "GBP",
  });
  await shop.addToCart("aurora-x1", 2);
  await shop.openCheckout();
  await sdk.ready();
  await shop.expectServicePayMode("tradein_valid");
  await shop.servicePayRadio().check();
  await shop.placeOrder();
  const cart = await purchaseCart(page);
  expect(cart.currency).toBe("GBP");
  await expectWindowAmounts(sdk, cart, tradeIn);
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/checkout/confirmation"),
    sdk.pressPayNowTwice("enter twice"),
  ]);
  const { cart_id } = await detailOf(sdk, "service-payment-completed");
  expect(await countOf(sdk, "service-payment-completed")).toBe(1);
  expect(await countOf(sdk, "service-ready-to-place-order")).toBe(1);
  const starts = (await emulator.journal()).filter(
    (e) => e.kind === "request" && e.method === "POST" && e.path === "/sdk/v1/payments",
  );
  expect(starts).toHaveLength(1);
  const orders = (await emulator.orders()).filter((o) => o.cart_id === cart_id);
  expect(orders.map((o) => [o.status, o.amount - o.trade_in_discount])).toEqual([
    ["payment_completed", cart.total - tradeIn],
  ]);
  await expect(shop.orderStatus()).toHaveText("Paid");
  expect(storedOrderOfCart(cart_id)).toMatchObject({
    status: "payment_completed",
    currency: "GBP",
  });
});

/** Drops the next call of the SDK matching `path` as a timed-out connection: the service never
 *  answers it (and, for the completion, never receives it). */
async function noAnswerOnce(page: Page, path: RegExp) {
  let reached: () => void = () => undefined;
  const hit = new Promise<void>((resolve) => {
    reached = resolve;
  });
  let done = false;
  // Not `times: 1`: a CORS preflight reaching the handler would spend it.
  await page.route(
    (url) => path.test(url.pathname),
    async (route: Route) => {
      if (done || route.request().method() === "OPTIONS") return route.fallback();
      done = true;
      reached();
      await route.abort("timedout");
    },
  );
  // In an object: an async function returning the promise itself would wait for it.
  return { hit };
}

test("the payment's completion never answered: no completed event, no success, no confirmation page, the order not paid, the cart kept; Pay now again pays once", async ({
  page,
  sdk,
  shop,
}) => {
  await toPaymentWindow(sdk, shop);
  const calls = sdk.recordServiceCalls();
  const fault = await noAnswerOnce(page, /\/sdk\/v1\/payments\/[^/]+\/complete$/);
  await sdk.pressPayNow();
  await fault.hit;
  await expect(sdk.paymentStatus()).toHaveText(FAILED);
  await expect(sdk.paymentModal()).not.toContainText("Payment completed");
  expect(new URL(page.url()).pathname).toBe("/checkout");
  expect(await countOf(sdk, "service-payment-completed")).toBe(0);
  // The shop tells the truth: the order the merchant listener started is not paid, the cart
  // is still there.
  const { cart_id } = await detailOf(sdk, "service-ready-to-place-order");
  await expect(page.getByRole("main")).toContainText("Aurora X1");
  expect(storedOrderOfCart(cart_id)?.status ?? "none").not.toBe("payment_completed");
  // Again, from the same window: the same order completes, once.
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/checkout/confirmation"),
    sdk.pressPayNow(),
  ]);
  expect(await countOf(sdk, "service-payment-completed")).toBe(1);
  expect(calls.count(COMPLETE)).toBe(2);
  const completed = await detailOf(sdk, "service-payment-completed");
  expect(completed).toMatchObject({ cart_id });
  expect(storedOrderOfCart(cart_id)).toMatchObject({ serviceOrderId: completed.order_id });
});

test("the service answers the payment's start 500, then its completion 503: no completed event, no confirmation, no paid order anywhere; Pay now again pays once @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  await toPaymentWindow(sdk, shop);
  const paidOrders = async () =>
    (await emulator.orders()).filter((o) => o.status === "payment_completed");

  // The start refused: no order anywhere, nothing told to the merchant.
  // ("/sdk/v1/payments" is a prefix of the completion too: count 1 spends it on the start.)
  await emulator.addFault({ endpoint: "/sdk/v1/payments", method: "POST", status: 500, count: 1 });
  await sdk.pressPayNow();
  await expect(sdk.paymentStatus()).toHaveText(FAILED);
  expect(await countOf(sdk, "service-ready-to-place-order")).toBe(0);
  expect(await emulator.orders()).toEqual([]);

  // The completion refused: the order started and told to the merchant, paid nowhere.
  await emulator.addFault({ endpoint: "/sdk/v1/payments/", method: "POST", status: 503, count: 1 });
  await sdk.pressPayNow();
  await expect(sdk.paymentStatus()).toHaveText(FAILED);
  expect(new URL(page.url()).pathname).toBe("/checkout");
  expect(await countOf(sdk, "service-payment-completed")).toBe(0);
  const { cart_id } = await detailOf(sdk, "service-ready-to-place-order");
  expect((await emulator.orders()).map((o) => o.status)).toEqual(["pending"]);
  expect(await paidOrders()).toEqual([]);
  expect(storedOrderOfCart(cart_id)?.status ?? "none").not.toBe("payment_completed");

  // Again, the faults spent: one payment, the service's and the shop's order paid once.
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/checkout/confirmation"),
    sdk.pressPayNow(),
  ]);
  expect(await countOf(sdk, "service-payment-completed")).toBe(1);
  // A start again after a failed completion is the same order (the service reuses the cart's
  // pending order), told to the merchant again: every ready-to-place-order names that order.
  const readies = (await sdk.eventLog()).filter((e) => e.name === "service-ready-to-place-order");
  expect(new Set(readies.map((e) => (e.detail as { order_id: string }).order_id)).size).toBe(1);
  expect((await emulator.orders()).map((o) => [o.cart_id, o.status])).toEqual([
    [cart_id, "payment_completed"],
  ]);
  await expect(shop.orderStatus()).toHaveText("Paid");
  expect(storedOrderOfCart(cart_id)).toMatchObject({ status: "payment_completed" });
});

test("the service holds the payment's completion without an answer: after the SDK's 30 s on the page's clock the shopper reads that it did not answer, no completed event, the order not paid; Pay now again pays once @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  // The page's clock, so the SDK's time limit passes without the test waiting for it.
  await page.clock.install();
  await toPaymentWindow(sdk, shop);
  // Held far beyond the SDK's limit (the emulator's longest latency), then not answered at all
  // as far as this test goes. ("/sdk/v1/payments/" is the completion's prefix, not the start's.)
  const hold = await emulator.addFault({
    endpoint: "/sdk/v1/payments/",
    method: "POST",
    latency_ms: 120_000,
    count: 1,
  });
  const held = page.waitForRequest(
    (request) =>
      request.method() === "POST" &&
      /\/sdk\/v1\/payments\/[^/]+\/complete$/.test(new URL(request.url()).pathname),
  );
  await sdk.pressPayNow();
  await held;
  // The browser sent it; the page's clock moves only once the service holds it. A completion
  // the SDK gives up before it reaches the service is one the service never saw: the rule would
  // stay unspent and hold the second Pay now instead. A spent rule leaves the emulator's list.
  await expect
    .poll(async () => (await emulator.faults()).some((rule) => rule.id === hold.id))
    .toBe(false);
  await expect(sdk.paymentStatus()).toHaveText("Processing payment…");
  // Just short of the limit the SDK still waits and claims nothing either way.
  await page.clock.fastForward(29_000);
  await expect(sdk.paymentStatus()).toHaveText("Processing payment…");
  await page.clock.fastForward(1_000);
  await expect(sdk.paymentStatus()).toHaveText(
    "The service did not answer in time. Please try again.",
  );
  await expect(sdk.paymentModal().getByRole("button", { name: "Pay now" })).toBeEnabled();
  expect(new URL(page.url()).pathname).toBe("/checkout");
  expect(await countOf(sdk, "service-payment-completed")).toBe(0);
  const { cart_id } = await detailOf(sdk, "service-ready-to-place-order");
  expect(storedOrderOfCart(cart_id)?.status ?? "none").not.toBe("payment_completed");
  expect((await emulator.orders()).map((o) => o.status)).toEqual(["pending"]);

  // The fault spent, the service answers again: the same order completes, once.
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/checkout/confirmation"),
    sdk.pressPayNow(),
  ]);
  expect(await countOf(sdk, "service-payment-completed")).toBe(1);
  expect(await detailOf(sdk, "service-payment-completed")).toMatchObject({ cart_id });
  expect(storedOrderOfCart(cart_id)).toMatchObject({ status: "payment_completed" });
});

/** The SDK's words per teaser type (emulator/sdk/format.ts, English), and its offer line. */
const TEASER_WORDS: Record<TeaserType, string> = {
  banner: "Trade in your old device and save on your order.",
  "product-widget": "Pay less for this product with your old device.",
  "cart-summary": "Trade in a device to lower this total.",
  "thank-you": "Have another device at home? Trade it in on your next order.",
};

/** Each teaser of `type` on the page shows its own type's words and no other type's, in the
 *  shape committed for its placement (e2e/sdk-shapes/, ./support/sdk-shape.ts) and the SDK's
 *  look. */
async function expectOwnWords(sdk: ServiceSdkDriver, type: TeaserType) {
  const teasers = sdk.teasers(type);
  await expect(teasers.first()).toBeVisible();
  for (const teaser of await teasers.all()) {
    await expectShape(`teaser-${type}-cta`, teaser);
    await expectTeaserLook(teaser);
    await expect(teaser).toHaveAttribute("data-state", "cta");
    await expect(teaser).toContainText(TEASER_WORDS[type]);
    for (const [other, words] of Object.entries(TEASER_WORDS)) {
      if (other !== type) await expect(teaser).not.toContainText(words);
    }
  }
}

/** With an accepted trade-in every teaser shows the offer, and none a call-to-action's words;
 *  each in the shape committed for its placement, the offer the wizard's own figure. */
async function expectOffer(sdk: ServiceSdkDriver, type: TeaserType, offerText: string) {
  const teasers = sdk.teasers(type);
  await expect(teasers.first()).toBeVisible();
  for (const teaser of await teasers.all()) {
    await expectShape(`teaser-${type}-offer`, teaser, {
      figures: { offer: offerText, device: EVERYDAY_DEVICE.model },
    });
    await expectTeaserLook(teaser);
    await expect(teaser).toHaveAttribute("data-state", "offer");
    await expect(teaser).toContainText(`${EVERYDAY_DEVICE.model}: ${offerText} off`);
    for (const words of Object.values(TEASER_WORDS)) await expect(teaser).not.toContainText(words);
  }
}

/** Follows one of the shop's links and waits for the new page: a Next.js client-side navigation
 *  (the document stays, so a mark left on `window` survives; the SDK stays loaded and the new
 *  page's teaser markers appear deep inside the layout). */
async function follow(page: Page, link: Locator, path: string, heading: string | RegExp) {
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  await link.click();
  await expect(page).toHaveURL((url) => url.pathname === path);
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  expect(
    await page.evaluate(() => "sameDocument" in window),
    `${path} reached by a client-side navigation, not a document load`,
  ).toBe(true);
}

test("each teaser placement shows its own type's words and no other type's: banner on home and category, product-widget on the product, cart-summary on cart and checkout, thank-you on the confirmation; the pages after the first reached by the shop's links (client-side navigation)", async ({
  page,
  sdk,
  shop,
}) => {
  await signedInAtHome(sdk, shop);
  await expectOwnWords(sdk, "banner");
  // From here the shopper follows the shop's links: one SDK start-up for every page, whose
  // markers it must find as they are rendered (Contract, Front-end SDK › Teasers: every
  // element with class service-teaser, wherever the page puts it).
  const main = page.getByRole("main");
  await follow(
    page,
    page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "Phones" }),
    "/category/phones",
    "Phones",
  );
  await expectOwnWords(sdk, "banner");
  await follow(
    page,
    main.locator('a[href="/products/aurora-x1"]'),
    "/products/aurora-x1",
    "Aurora X1",
  );
  await expectOwnWords(sdk, "banner");
  await expectOwnWords(sdk, "product-widget");
  await page.getByRole("button", { name: "Add to cart" }).click();
  await follow(page, main.getByRole("link", { name: "View cart" }), "/cart", "Your cart");
  await expectOwnWords(sdk, "cart-summary");
  await follow(page, main.getByRole("link", { name: "Go to checkout" }), "/checkout", "Checkout");
  await expectOwnWords(sdk, "cart-summary");
  expect(await sdk.eventCount("service-ready"), "one SDK start-up since the home page").toBe(1);
  await payByCard(shop);
  await sdk.ready();
  await expectOwnWords(sdk, "thank-you");
});

test("with an accepted trade-in every teaser placement shows the offer, in the page's locale and currency, and no call to action's words; the wizard opened from the banner by keyboard keeps the focus inside and gives it back to the banner's button when closed and after the offer is accepted", async ({
  page,
  sdk,
  shop,
}) => {
  await signedInAtHome(sdk, shop);
  // A keyboard shopper (Contract, Front-end SDK: the wizard is a modal dialog): the teaser's
  // button opens it with Enter, Tab stays inside, Escape closes it and the focus is back on
  // the button that opened it.
  const bannerButton = sdk.teasers("banner").first().getByRole("button");
  await expect(bannerButton).toHaveText("Calculate discount");
  await bannerButton.focus();
  await page.keyboard.press("Enter");
  await expect(sdk.wizard()).toBeVisible();
  await sdk.expectFocusTrappedInWizard(3);
  await sdk.closeWizard("escape");
  await expect(bannerButton).toBeFocused();
  // Again with Enter: valued, and the offer accepted with Enter on the focused "Accept offer".
  await page.keyboard.press("Enter");
  const offer = await sdk.valueDevice(EVERYDAY_DEVICE.category, EVERYDAY_DEVICE.model);
  const accept = sdk.wizard().getByRole("button", { name: "Accept offer" });
  await expect(accept).toBeFocused();
  await page.keyboard.press("Enter");
  await sdk.waitForEvent("service-valuation-updated");
  await expect(sdk.wizard()).toBeHidden();
  // The banner now shows the offer, and its button (now "Value another device") still has the
  // focus: the page did not drop the keyboard shopper at its top.
  await expect(bannerButton).toHaveText("Value another device");
  await expect(bannerButton).toBeFocused();
  const offerText = new Intl.NumberFormat("en", { style: "currency", currency: "EUR" }).format(
    offer / 100,
  );
  await expectOffer(sdk, "banner", offerText);
  await shop.addToCart("aurora-x1"); // on the product page
  await sdk.ready();
  await expectOffer(sdk, "banner", offerText);
  await expectOffer(sdk, "product-widget", offerText);
  await shop.openCheckout();
  await sdk.ready();
  await expectOffer(sdk, "cart-summary", offerText);
});

test("an accepted offer's teasers fall back to the call to action once its valid_until passes on the service's clock, in the page the shopper left open, with the browser's clock ten minutes behind the service's", async ({
  page,
  sdk,
  shop,
}) => {
  // The shopper's computer is ten minutes slow. The offer ends at valid_until on the service's
  // clock (contract, Valuation validity: expired when now is after valid_until), so the SDK
  // times it by the service's clock, not the browser's. No control API and no test device: the
  // offer is the service's everyday one, and only the browser's clock moves.
  const behind = 10 * 60_000;
  await page.clock.install({ time: Date.now() - behind });
  await signedInAtHome(sdk, shop);
  await sdk.openWizardFromTeaser("banner");
  await sdk.valueAndAccept(EVERYDAY_DEVICE.category, EVERYDAY_DEVICE.model);
  const { detail } = await sdk.waitForEvent("service-valuation-updated");
  const validUntil = Date.parse((detail as { valid_until: string }).valid_until);
  const banner = sdk.teasers("banner").first();
  await expect(banner).toHaveAttribute("data-state", "offer");
  expect(await sdk.hasActiveTradeIn()).toBe(true);
  // The service's clock is this machine's (a staging service's, too, within seconds): the page
  // is moved to a minute before valid_until on it, then two minutes on. A timer set by the
  // browser's own clock would end the offer ten minutes late.
  const serviceNow = () => Date.now();
  await page.clock.fastForward(validUntil - 60_000 - serviceNow());
  await expect(banner).toHaveAttribute("data-state", "offer");
  expect(await sdk.hasActiveTradeIn()).toBe(true);
  await page.clock.fastForward(120_000);
  await expect(banner).toHaveAttribute("data-state", "cta");
  await expectShape("teaser-banner-cta", banner);
  expect(await sdk.hasActiveTradeIn()).toBe(false);
});

test("the checkout left for the cart and reached again by the shop's links before paying: the shop's ready-to-place-order listener, removed and added again, runs once for the payment (one pending order asked for), and the SDK says nothing in the console", async ({
  page,
  sdk,
  shop,
}) => {
  // The shop's option adds its listener when the checkout shows and removes it when the
  // checkout goes (contract, Events: ready-to-place-order creates the pending order). The SDK
  // stays loaded across the shop's links, so a removal that did not happen would run the old
  // listener beside the new one. A shop that follows the contract hears nothing from the SDK in
  // its console, all the way.
  const warnings = sdkWarnings(page);
  await checkoutWithOwnOffer(sdk, shop);
  const main = page.getByRole("main");
  await follow(page, page.getByRole("link", { name: /^Cart\b/ }), "/cart", "Your cart");
  await follow(page, main.getByRole("link", { name: "Go to checkout" }), "/checkout", "Checkout");
  await shop.expectServicePayMode("tradein_valid");
  await shop.servicePayRadio().check();
  let pendingOrders = 0;
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (request.method() === "POST" && pathname === "/api/service/pending-order")
      pendingOrders += 1;
  });
  await shop.placeOrder();
  await sdk.pay();
  expect(pendingOrders, "pending orders the shop's page asked for").toBe(1);
  expect(warnings.seen()).toEqual([]);
});
