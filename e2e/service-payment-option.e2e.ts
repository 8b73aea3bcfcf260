// Every mode and template of the Service Pay option (contract: Payment option mode, Payment
// option details; emulator/README.md "Payment option details" for what each case needs).
import { seriousViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { openCheckoutWith } from "./support/journeys";
import { expectOptionShape } from "./support/sdk-shape";
import { EVERYDAY_DEVICE } from "./support/service-sdk-driver";

test("unavailable: Service Pay not enabled for the merchant → the option is not shown @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  await emulator.patchMerchant("m_demo", { products: "valuations" });
  await openCheckoutWith({ page, sdk, shop }, "aurora-x1");
  await shop.expectServicePayMode("unavailable");
  await expect(shop.servicePayRadio()).toHaveCount(0);
  await expect(shop.servicePayOption()).toHaveCount(0);
  // The shop's own method is untouched, and teasers still show (valuations stay on).
  await expect(shop.cardRadio()).toBeChecked();
  await expect(sdk.teasers("cart-summary")).toHaveCount(1);
  await expect(page.getByLabel("Card number")).toBeVisible();
});

test("tradein_missing: choosing the option opens the wizard; after the valuation it is tradein_valid and stays chosen", async ({
  page,
  sdk,
  shop,
}) => {
  await openCheckoutWith({ page, sdk, shop }, "aurora-x1");
  await shop.expectServicePayMode("tradein_missing");
  await expect(shop.servicePayRadio()).toBeEnabled();
  await expect(sdk.wizard()).toBeHidden();

  await page.getByLabel("Pay with Service").check();
  await expect(sdk.wizard()).toBeVisible();
  // Contract, Events: the selection's payload names the mode it was chosen in.
  expect((await sdk.waitForEvent("servicepay-payment-method-selected")).detail).toMatchObject({
    message: expect.any(String),
    mode: "tradein_missing",
  });
  await sdk.valueAndAccept(EVERYDAY_DEVICE.category, EVERYDAY_DEVICE.model);

  await shop.expectServicePayMode("tradein_valid");
  await expect(shop.servicePayRadio()).toBeChecked();
  await expect(page.getByTestId("service-pay-extra")).toBeVisible();
  expect(await sdk.eventCount("servicepay-payment-method-selected")).toBe(1);

  // Back to the card: the SDK is told (updatePaymentSelected(false)) and the extra text goes.
  await shop.cardRadio().check();
  await sdk.waitForEvent("servicepay-payment-method-unselected");
  await expect(page.getByTestId("service-pay-extra")).toHaveCount(0);
});

test("tradein_missing: closing the wizard without an offer leaves the option unchosen", async ({
  page,
  sdk,
  shop,
}) => {
  await openCheckoutWith({ page, sdk, shop }, "aurora-x1");
  await shop.expectServicePayMode("tradein_missing");
  await page.getByLabel("Pay with Service").check();
  await expect(sdk.wizard()).toBeVisible();
  // By keyboard, as a keyboard user leaves it: Tab stays inside the modal, Escape closes it.
  await sdk.expectFocusTrappedInWizard();
  await sdk.closeWizard("escape");
  expect((await sdk.events()).filter((e) => e.name === "service-modal-closed")).toEqual([
    {
      name: "service-modal-closed",
      detail: expect.objectContaining({ message: expect.any(String) }),
    },
  ]);
  await expect(shop.servicePayRadio()).not.toBeChecked();
  await expect(shop.cardRadio()).toBeChecked();
  await sdk.waitForEvent("servicepay-payment-method-unselected");
  await shop.expectServicePayMode("tradein_missing");
});

test("tradein_valid: selectable; info hidden until asked for, extra shown only when chosen", async ({
  page,
  sdk,
  shop,
}) => {
  await openCheckoutWith({ page, sdk, shop }, "aurora-x1", "wizard");
  await shop.expectServicePayMode("tradein_valid", "tradein_valid");
  await expect(shop.servicePayRadio()).toBeEnabled();
  await expect(shop.servicePayRadio()).not.toBeChecked();

  // In this shop's look: the kit's option wears the class names the shop gives it
  // (lib/ui/checkout-form.tsx), beside the shop's own payment method cards.
  await expect(page.getByTestId("service-pay-option")).toHaveClass(/(^| )radio-card( |$)/);
  const about = page.getByRole("button", { name: "About Pay with Service" });
  await expect(about).toHaveClass(/(^| )button--link( |$)/);

  const info = page.getByTestId("service-pay-info");
  await expect(info).toBeHidden();
  await about.click();
  await expect(info).toBeVisible();
  await expect(info).not.toBeEmpty();

  await expect(page.getByTestId("service-pay-extra")).toHaveCount(0);
  await page.getByLabel("Pay with Service").check();
  await expect(page.getByTestId("service-pay-extra")).toBeVisible();
  // A valid trade-in: choosing the option does not open the wizard.
  await sdk.waitForEvent("servicepay-payment-method-selected");
  await expect(sdk.wizard()).toBeHidden();
  expect(await seriousViolations(page, "fieldset.payment-methods")).toEqual([]);
});

// Tagged: the magic device is the emulator's (the testDevices fixture skips it without one).
test("tradein_invalid/currency: an offer in GBP against a EUR cart → disabled with the explanation @emulator", async ({
  sdk,
  shop,
  testDevices,
}) => {
  await openCheckoutWith({ page: shop.page, sdk, shop }, "aurora-x1");
  await shop.expectServicePayMode("tradein_missing");
  // Through the wizard with the emulator's magic device: the offer comes in GBP.
  await sdk.openWizardFromTeaser("cart-summary");
  await sdk.valueAndAccept(testDevices.category, testDevices.otherCurrency);
  await shop.expectServicePayMode("tradein_invalid", "currency");
  await expect(shop.servicePayRadio()).toBeDisabled();
  await expect(shop.servicePayExplanation()).toBeVisible();
  await expect(shop.servicePayExplanation()).toHaveAttribute("data-template", "currency");
  await expect(shop.servicePayExplanation()).not.toBeEmpty();
  await expect(shop.servicePayRadio()).toHaveAttribute(
    "aria-describedby",
    (await shop.servicePayExplanation().getAttribute("id")) ?? "",
  );
});

// The shopper's own valuation (the wizard, in the cart's EUR): no control API, so it runs
// against a staging service too.
test("tradein_invalid/currency: switching the shop to GBP refreshes the option without a reload", async ({
  page,
  sdk,
  shop,
}) => {
  await openCheckoutWith({ page, sdk, shop }, "aurora-x1", "wizard");
  await shop.expectServicePayMode("tradein_valid");
  await page.getByLabel("Pay with Service").check();
  await shop.switchCurrency("GBP");
  await shop.expectServicePayMode("tradein_invalid", "currency");
  await expect(shop.servicePayRadio()).toBeDisabled();
  await expect(shop.servicePayRadio()).not.toBeChecked();
  await expect(shop.cardRadio()).toBeChecked();
  // Disabled, with the service's explanation (./sdk-shapes/option-tradein_invalid.txt).
  const { label } = await sdk.paymentOptionDetails();
  await expectOptionShape("option-tradein_invalid", shop.servicePayOption(), label);
});

// tradein_invalid/cart_below_limit: the shopper's own offer above a small cart, with no control
// API, is in one-amount.e2e.ts ("Service Pay with a promotion code, the trade-in above …").

test("tradein_invalid/other_ok: a cart under Service Pay's minimum → disabled, the trade-in still works with other methods @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  // 10.00 trade-in, 179.00 cart (183.99 with standard delivery): above the trade-in minimum
  // (50.00), under ep1's (200.00).
  await openCheckoutWith({ page, sdk, shop }, "echo-buds-pro", { emulator, value: 1000 });
  await shop.expectServicePayDisabled("other_ok");
  await expect(shop.cardRadio()).toBeEnabled();
  expect(await seriousViolations(page, "fieldset.payment-methods")).toEqual([]);
});

test("submitting with Service Pay checks the details on the server first; the payment modal waits for valid details", async ({
  page,
  sdk,
  shop,
}) => {
  await openCheckoutWith({ page, sdk, shop }, "aurora-x1", "wizard");
  await shop.expectServicePayMode("tradein_valid");
  await page.getByLabel("Pay with Service").check();
  await page.locator("#email").fill("not-an-email");
  await shop.placeOrder();
  const error = page.getByTestId("service-pay-error");
  await expect(error).toContainText("email");
  await expect(sdk.paymentModal()).toBeHidden();
  // No order was placed through the shop's own submit either.
  await expect(page).toHaveURL((url) => url.pathname === "/checkout");

  await page.locator("#email").fill("shopper@example.com");
  await shop.placeOrder();
  await expect(sdk.paymentModal()).toBeVisible();
  await expect(error).toHaveCount(0);
});

test("with Service Pay chosen no other payment runs: neither the form's own submit handlers nor the Place order button's click handler, by click or by Enter", async ({
  page,
  sdk,
  shop,
}) => {
  await openCheckoutWith({ page, sdk, shop }, "aurora-x1", "wizard");
  await shop.expectServicePayMode("tradein_valid");
  // Where a card processor's browser SDK hooks in: a client onSubmit that prevents the form's
  // action and confirms the payment, and the pay button's own click handler (both as listeners
  // of the page, on the form, the button and the document where React's root listens).
  await page.evaluate(() => {
    const calls: string[] = [];
    Object.assign(window, { cardCalls: calls });
    const form = document.getElementById("checkout-form") as HTMLFormElement;
    const button = [...form.querySelectorAll("button")].find(
      (b) => b.textContent === "Place order",
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      calls.push("form onSubmit: confirmPayment");
    });
    document.addEventListener("submit", () => calls.push("document submit"), true);
    button?.addEventListener("click", () => calls.push("button onClick: confirmPayment"));
  });
  const cardCalls = () =>
    page.evaluate(() => (window as unknown as { cardCalls: string[] }).cardCalls.splice(0));

  // The card chosen: the card SDK's handlers run (the listeners above hear what they would).
  await expect(shop.cardRadio()).toBeChecked();
  await shop.placeOrder();
  await expect
    .poll(cardCalls)
    .toEqual([
      "button onClick: confirmPayment",
      "document submit",
      "form onSubmit: confirmPayment",
    ]);

  // Service Pay chosen: the service's modal opens and none of them runs, by click or by Enter.
  await shop.servicePayRadio().check();
  await shop.placeOrder();
  await expect(sdk.paymentModal()).toBeVisible();
  await sdk.closePaymentModal();
  await page.locator("#email").press("Enter");
  await expect(sdk.paymentModal()).toBeVisible();
  expect(await cardCalls(), "the card SDK's handlers with Service Pay chosen").toEqual([]);
  await expect(page).toHaveURL((url) => url.pathname === "/checkout");
});
