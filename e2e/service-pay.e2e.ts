// Go-live scenario 1 (public-docs-facts: "Service Pay: valuation, cart, choose Service Pay, pay in
// the modal, the order webhook arrives, the thank-you page shows"), from a teaser to the
// confirmation page, in a real browser. The journey itself needs no control API, so it also runs
// against another SDK build (`--grep-invert @emulator`).
import { createHmac } from "node:crypto";
import type { Page } from "@playwright/test";
import { formatMoney } from "../lib/shop/money";
import { sessionHashOf } from "./support/emulator";
import { expect, test } from "./support/fixtures";
import { EVERYDAY_DEVICE, type ServiceSdkDriver } from "./support/service-sdk-driver";
import { inEveryServiceReading, VARIANTS_TAG } from "./support/service-variants";
import type { ShopSteps } from "./support/shop";
import { rawShopSession } from "./support/shop-session";

/**
 * Contract, Events › SDK browser events: every event of the scenario fired, in order, with the
 * detail a merchant's page script reads, and the merchant's slow listener was awaited.
 */
async function expectContractEvents(
  sdk: ServiceSdkDriver,
  offer: number,
  paid: { order_id: string; cart_id: string },
  newUser: boolean | "unknown",
) {
  const log = await sdk.eventLog();
  const names = log.map((e) => e.name);
  const detail = (name: string) => log.find((e) => e.name === name)?.detail;
  const message = expect.any(String);
  // Fired only for a shopper with no earlier valuation: certain after the emulator was reset;
  // without the control API an earlier test may have valued a device for the same shopper.
  const newUserDetail = detail("service-new-user-valuation-started");
  if (newUser === true || newUserDetail !== undefined) {
    expect(newUserDetail).toMatchObject({ message, model_id: expect.any(String) });
  }
  const valuation = detail("service-valuation-updated") as { tradein_id: string };
  expect(valuation).toMatchObject({
    message,
    tradein_id: expect.any(String),
    value: offer,
    currency: "EUR",
    valid_until: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  });
  expect(log.find((e) => e.name === "service-modal-closed")?.detail).toMatchObject({ message });
  expect(detail("servicepay-payment-method-selected")).toMatchObject({
    message,
    mode: "tradein_valid",
    tradein_id: valuation.tradein_id,
  });
  const ready = { message, cart_id: paid.cart_id, order_id: paid.order_id };
  expect(detail("service-ready-to-place-order")).toEqual(ready);
  expect(detail("merchant-listener-done"), "the listener got the contract's detail").toEqual(ready);
  expect(detail("service-payment-completed")).toMatchObject(ready);
  // Awaited: the listener finished before the SDK completed the payment.
  expect(names.indexOf("merchant-listener-done")).toBeGreaterThan(-1);
  expect(names.indexOf("merchant-listener-done")).toBeLessThan(
    names.indexOf("service-payment-completed"),
  );
}

/** The whole scenario; ends on the confirmation page with the order paid. */
async function goLiveScenario1(
  page: Page,
  sdk: ServiceSdkDriver,
  shop: ShopSteps,
  newUser: boolean | "unknown",
) {
  await shop.login();
  await page.goto("/");
  await sdk.ready();
  await sdk.openWizardFromTeaser("banner");
  const offer = await sdk.valueAndAccept(EVERYDAY_DEVICE.category, EVERYDAY_DEVICE.model);
  expect(offer).toBeGreaterThan(0);
  await sdk.expectOfferShown("banner");
  // The offer in currency units, as the shop formats the same cents (not cents shown as euros).
  const offerText = formatMoney(offer, "EUR").replace("€", "");
  await expect(sdk.teasers("banner").first()).toContainText(offerText);

  // The offer follows the shopper to the product page, under "Add to cart".
  await shop.addToCart("aurora-x1");
  await sdk.ready();
  await sdk.expectOfferShown("product-widget");

  await shop.openCheckout();
  await sdk.ready();
  await sdk.expectOfferShown("cart-summary");
  await shop.expectServicePayMode("tradein_valid");
  const radio = shop.servicePayRadio();
  await expect(radio).toHaveAttribute("data-module-name", "servicepay");
  // The service's payment icon, as the service serves it, sits in the option (decorative: the
  // label names the option).
  const icon = shop.servicePayOption().locator("img");
  await expect(icon).toHaveAttribute("src", /\/v1\/service-pay\.svg$/);
  await expect(icon).toBeVisible();
  // Loaded, not only laid out (its box has a size before the file arrives).
  await expect
    .poll(() => icon.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  await expect(page.getByTestId("service-pay-info")).toBeHidden();
  await expect(page.getByTestId("service-pay-extra")).toHaveCount(0);
  await page.getByLabel("Pay with Service").check();
  await expect(radio).toBeChecked();
  await expect(shop.cardRadio()).not.toBeChecked();
  await expect(page.getByLabel("Card number")).toHaveCount(0);
  await expect(page.getByTestId("service-pay-extra")).toBeVisible();
  await sdk.waitForEvent("servicepay-payment-method-selected");

  // A merchant listener that takes a while: the SDK awaits it before the payment completes.
  await sdk.addSlowReadyToPlaceOrderListener();
  await shop.placeOrder();
  const amounts = await sdk.paymentAmounts();
  // Everything the order owes, standard delivery included (docs/decisions/delivery-in-the-cart.md).
  expect(amounts.cartTotal).toContain("803.99");
  expect(amounts.tradeInDiscount).toContain(formatMoney(offer, "EUR").replace("€", ""));
  const paid = await sdk.pay();
  expect(paid.cart_id).toBeTruthy();
  await expectContractEvents(sdk, offer, paid, newUser);

  // The pending order existed before the payment completed; only the signed webhook moves it to
  // payment_completed ("Paid"), and it carries the trade-in discount.
  await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
  await expect(shop.orderStatus()).toHaveText("Paid");
  await expect(shop.tradeInDiscount()).toHaveText(`−${formatMoney(offer, "EUR")}`);
  await sdk.ready();
  await expect(sdk.teasers("thank-you")).toHaveCount(1);
  return paid;
}

test("go-live scenario 1: teaser, valuation, cart, Service Pay in the modal, webhook, confirmation with the trade-in discount", async ({
  page,
  sdk,
  shop,
}) => {
  await goLiveScenario1(page, sdk, shop, "unknown");
});

inEveryServiceReading(() =>
  test("the raw session id reaches the service nowhere in scenario 1 (the emulator's journal) @emulator", {
    tag: VARIANTS_TAG,
  }, async ({ page, context, sdk, shop, emulator }) => {
    // The emulator fixture reset the service: this shopper has no earlier valuation.
    const paid = await goLiveScenario1(page, sdk, shop, true);
    const delivered = await emulator.deliveredWebhookFor(paid.cart_id);
    expect(delivered.attempts.at(-1)?.status).toBe(200);

    // Authentication 6: the raw session id never leaves the shop's server. The journal holds every
    // request the SDK and the shop's server made to the service in this journey (start-up,
    // valuation, payment option, payment) and every webhook, bodies included. The raw id and its
    // salt come from unsealing the shopper's own cookie; the hash made from them must be there
    // (so the check looks at the right traffic), the id and the salt nowhere.
    const { sessionId, salt } = await rawShopSession(context);
    const hash = await sessionHashOf(page);
    // The hash is the HMAC of THIS session (computed here, independently of the shop's code), so a
    // shop sending some other value (a constant, the wrong session's hash) fails.
    expect(hash).toBe(createHmac("sha256", salt).update(sessionId, "utf8").digest("hex"));
    const journal = JSON.stringify(await emulator.journal());
    expect(journal).toContain(hash);
    expect(journal).not.toContain(sessionId);
    expect(journal).not.toContain(salt);
  }),
);
