// The sales demo guide, walked as a presenter walks it (docs/demo.md): its three go-live
// scenarios, its magic choices and its back-office steps, in a window 1440 px wide where the
// integration inspector opens by itself. Every sentence the guide quotes is checked on the
// screen where the guide says it appears (./support/demo-guide.ts); the last test fails when the
// guide quotes a sentence no journey here has seen. One stack, in order: the back office reads
// the orders the scenarios before it placed.
import type { Page } from "@playwright/test";
import { adminLogin, CARDS, fillCard, placeOrder, SHOPPER } from "./fixtures";
import { DemoGuide } from "./support/demo-guide";
import { type emulator as emulatorControl, sessionHashOf } from "./support/emulator";
import { expect, test } from "./support/fixtures";
import { skipWithPrerequisites } from "./support/service-fixture";
import type { ServiceSdkDriver } from "./support/service-sdk-driver";
import type { ShopSteps } from "./support/shop";
import { advanceShopClock } from "./support/shop-clock";
import { storedOrder } from "./support/shop-db";

const ALEX = { email: "alex@example.com", password: "alex-demo-password" };
const guide = new DemoGuide();
/** Orders the scenarios placed, for the back office's list. */
const placed: { registered?: string; plain?: string } = {};

test.use({ viewport: { width: 1440, height: 900 } });
test.describe.configure({ mode: "serial" });

/** Header **Log in** → the form → **Log in**: the shopper lands on the account page. */
async function logInFromHeader(page: Page, account: { email: string; password: string }) {
  await page.getByRole("banner").getByRole("link", { name: "Log in" }).click();
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("main").getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/account");
}

/** From the product page: **Add to cart** → **View cart** → **Go to checkout**. */
async function addToCartAndCheckOut(page: Page, slug: string) {
  await page.goto(`/products/${slug}`);
  await addAndGoToCheckout(page);
}

async function addAndGoToCheckout(page: Page) {
  const add = page.getByRole("button", { name: "Add to cart" });
  await add.click();
  await expect(page.getByRole("status")).toContainText("Added to your cart.");
  await page.getByRole("status").getByRole("link", { name: "View cart" }).click();
  // On the cart page, as the shopper sees it, before the next click.
  await expect(page).toHaveURL((url) => url.pathname === "/cart");
  await expect(page.getByRole("heading", { level: 1, name: "Your cart" })).toBeVisible();
  await page.getByRole("link", { name: "Go to checkout" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
}

async function payByCard(page: Page, card: string = CARDS.success) {
  await page.getByLabel("Credit or debit card").check();
  await fillCard(page, card);
  await placeOrder(page);
}

/**
 * "The same valuation": the demo shopper, signed in, with the €420.00 trade-in of scenario 1
 * accepted at the service (its control API; scenario 1 shows the wizard).
 */
async function signedInWithTradeIn(
  page: Page,
  sdk: ServiceSdkDriver,
  shop: ShopSteps,
  emulator: typeof emulatorControl,
) {
  await shop.startSignedIn();
  await page.goto("/");
  await sdk.ready();
  await emulator.createTradeIn({
    session_hash: await sessionHashOf(page),
    value: 42_000,
    currency: "EUR",
  });
}

/** A test phone from the wizard's **Test devices** (the `testDevices` fixture's category),
 *  valued and accepted from the home banner. */
async function valueTestPhone(
  page: Page,
  sdk: ServiceSdkDriver,
  testDevices: { category: string },
  model: string,
) {
  await page.goto("/");
  await sdk.ready();
  await sdk.openWizardFromTeaser("banner");
  const wizard = sdk.wizard();
  await wizard.getByLabel("Category").selectOption({ label: testDevices.category });
  await guide.shows(wizard.getByLabel("Model"), model);
  // The wizard marks a test device's model "(test)".
  await sdk.valueDevice(testDevices.category, `${model} (test)`);
  await sdk.acceptOffer();
}

/**
 * A magic choice's test phone, then a cart and the checkout: the Service Pay option disabled with
 * the template's explanation, in the guide's words.
 */
async function disabledWithExplanation(
  {
    page,
    sdk,
    shop,
    testDevices,
  }: { page: Page; sdk: ServiceSdkDriver; shop: ShopSteps; testDevices: { category: string } },
  choice: { model: string; product: string; template: string },
  sentence: string,
) {
  await valueTestPhone(page, sdk, testDevices, choice.model);
  await addToCartAndCheckOut(page, choice.product);
  await shop.expectServicePayMode("tradein_invalid", choice.template);
  await guide.shows(shop.servicePayExplanation(), sentence);
}

test("scenario 1, Service Pay: the guide's amounts on every page, in the service's window, its order and the shop's database @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  await page.goto("/");
  await logInFromHeader(page, SHOPPER);
  await page.getByRole("link", { name: "Continue shopping" }).click();
  await sdk.ready();
  await sdk.openWizardFromTeaser("banner");
  expect(await sdk.valueDevice("Phones", "Aurora 15")).toBe(42_000);
  await sdk.acceptOffer();
  await guide.shows(
    sdk.teasers("banner").getByRole("group", { name: "Your trade-in" }),
    "Your trade-in: Aurora 15: €420.00 off",
  );
  // The inspector opened by itself in a window this wide.
  const inspector = page.getByTestId("integration-inspector");
  await expect(inspector).toBeVisible();

  await page.goto("/products/aurora-x1");
  await guide.shows(
    page.getByTestId("product-trade-in-price"),
    "from €383.99 with your trade-in, standard delivery included",
  );
  // The keyboard focus stays on the button while the cart is updated.
  const add = page.getByRole("button", { name: "Add to cart" });
  await add.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toContainText("Added to your cart.");
  await expect(add).toBeFocused();
  await page.getByRole("status").getByRole("link", { name: "View cart" }).click();
  await guide.shows(
    page.getByTestId("total-with-trade-in"),
    "With your €420.00 trade-in: €383.99 to pay with Service Pay, standard delivery included",
  );
  await page.getByRole("link", { name: "Go to checkout" }).click();
  await shop.expectServicePayMode("tradein_valid");
  await shop.servicePayRadio().check();
  await guide.shows(page.locator("p", { hasText: "Total to pay:" }), "Total to pay: €383.99");
  await placeOrder(page);
  await guide.shows(sdk.paymentModal().locator('[data-amount="left-to-pay"]'), "€383.99");
  const paid = await sdk.pay();
  await guide.shows(shop.orderStatus(), "Paid");
  await guide.shows(page.getByRole("main"), "Paid with Service. Your trade-in discount: −€420.00");
  await expect(inspector).toContainText("service-ready-to-place-order");
  await expect(inspector).toContainText("service-payment-completed");
  await expect(inspector).toContainText(/POST \/order .*payment_completed/);

  // One amount: what the service collected and what the shop recorded as paid.
  const number = (await page.getByTestId("order-number").textContent()) ?? "";
  const [collected] = (await emulator.orders()).filter((o) => o.cart_id === paid.cart_id);
  expect((collected?.amount ?? 0) - (collected?.trade_in_discount ?? 0)).toBe(38_399);
  expect(storedOrder(number)).toMatchObject({ status: "payment_completed", total: 38_399 });

  // The back office: the history as sentences, the list's trade-in column.
  const history = await shop.openAdminOrder(number);
  await guide.shows(
    history,
    "The service changed the status from Pending payment to Paid: notification … received.",
  );
  await page.goto("/admin");
  await guide.shows(page.getByRole("row").filter({ hasText: number }), "−€… off the payment");
});

test("scenarios 2 and 3: a card order registers the trade-in; after another shopper logs in, a plain card order registers nothing and the inspector shows only theirs @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  await signedInWithTradeIn(page, sdk, shop, emulator);
  await addToCartAndCheckOut(page, "aurora-x1");
  await payByCard(page);
  await guide.shows(
    page.getByTestId("trade-in-outcome"),
    "Your trade-in is registered with this order. The trade-in service pays its value back to you once it receives your device.",
  );
  await expect(sdk.teasers("thank-you")).toHaveCount(0);
  const inspector = page.getByTestId("integration-inspector");
  await expect(inspector).toContainText(/GET \/core\/sessions\/\S+\/ 200/);
  await expect(inspector).toContainText("POST /register-purchase 200");
  placed.registered = (await page.getByTestId("order-number").textContent()) ?? "";

  // Scenario 3: **My account** → **Log out**, then alex logs in from the header.
  await page.getByRole("banner").getByRole("link", { name: "My account" }).click();
  const signedOutAt = Date.now();
  await page.getByRole("button", { name: "Log out" }).click();
  await logInFromHeader(page, ALEX);
  // The tab's inspector kept the first shopper's lines (their SDK events, with cart and order
  // ids) across page loads; now it lists only lines recorded since the sign-out.
  const earliestLine = async () =>
    Math.min(
      ...(await inspector
        .locator("time")
        .evaluateAll((times) => times.map((t) => Date.parse(t.getAttribute("datetime") ?? "")))),
    );
  await expect.poll(earliestLine).toBeGreaterThanOrEqual(signedOutAt);
  await expect(inspector).not.toContainText("register-purchase");
  await addToCartAndCheckOut(page, "echo-buds-pro");
  await payByCard(page);
  await expect(shop.orderStatus()).toHaveText("Paid");
  await expect(page.getByTestId("trade-in-outcome")).toHaveCount(0);
  await guide.shows(
    sdk.teasers("thank-you").locator("p").first(),
    "Have another device at home? Trade it in on your next order.",
  );
  await expect(inspector).toContainText("register-purchase: no trade-in");
  await guide.shows(
    inspector,
    "The service's session for this shopper holds no trade-in: nothing to register.",
  );
  await expect(inspector.locator('[data-ok="false"]')).toHaveCount(0);
  // None of the first shopper's lines: its order's registration is not in alex's inspector.
  await expect(inspector.getByText("POST /register-purchase")).toHaveCount(0);
  placed.plain = (await page.getByTestId("order-number").textContent()) ?? "";
});

test("the back office's list: a registered card trade-in, and none @emulator", async ({
  page,
}, testInfo) => {
  skipWithPrerequisites(testInfo, "scenarios 2 and 3 (their orders)");
  expect(placed.registered && placed.plain, "the scenarios before placed both orders").toBeTruthy();
  await adminLogin(page);
  await guide.shows(
    page.getByRole("row").filter({ hasText: placed.registered ?? "" }),
    "Registered",
  );
  await guide.shows(page.getByRole("row").filter({ hasText: placed.plain ?? "" }), "None");
});

test("magic choices: an offer in another currency, a cart too small for the offer, a GBP cart @emulator", async ({
  page,
  sdk,
  shop,
  testDevices,
}) => {
  await shop.startSignedIn();
  await disabledWithExplanation(
    { page, sdk, shop, testDevices },
    { model: "Test phone: offer in another currency", product: "aurora-x1", template: "currency" },
    "Your offer is in GBP and your cart is in EUR. Value your device again in the shop's currency.",
  );

  await valueTestPhone(page, sdk, testDevices, "Test phone: offer of 2,000.00");
  await page.goto("/checkout");
  await shop.expectServicePayMode("tradein_invalid", "cart_below_limit");
  await guide.shows(
    shop.servicePayExplanation(),
    "To use your €2,000.00 offer your cart must total at least €2,000.00.",
  );
  await shop.switchCurrency("GBP");
  await shop.expectServicePayMode("tradein_invalid", "currency");
  await guide.shows(
    shop.servicePayExplanation(),
    "Your offer is in EUR and your cart is in GBP. Value your device again in the shop's currency.",
  );
});

test("magic choices: trade-in by card only (other_ok), and a declined card @emulator", async ({
  page,
  sdk,
  shop,
  testDevices,
}) => {
  await shop.startSignedIn();
  await disabledWithExplanation(
    { page, sdk, shop, testDevices },
    { model: "Test phone: offer of 10.00", product: "echo-buds-pro", template: "other_ok" },
    "Service Pay needs a cart of at least €200.00. Pay with another method and you still get €10.00 for your device.",
  );
  await payByCard(page, CARDS.declined);
  await guide.shows(
    page.getByRole("main"),
    "Your card was declined. Nothing was charged; try another card.",
  );
});

test("magic choices: an expired valuation asks for a new one with Service Pay and is not applied by card @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
  testDevices,
}) => {
  await shop.startSignedIn();
  await valueTestPhone(page, sdk, testDevices, "Test phone: offer that expires in a minute");
  await emulator.advanceClock({ minutes: 2 });
  await addToCartAndCheckOut(page, "aurora-x1");
  await shop.expectServicePayMode("tradein_missing");
  await shop.servicePayRadio().check();
  await expect(sdk.wizard()).toBeVisible();
  await sdk.closeWizard();
  await payByCard(page);
  await guide.shows(
    page.getByTestId("trade-in-outcome"),
    "Your trade-in valuation has expired, so its discount was not applied. You can value your device again for a new offer.",
  );
});

test("magic choices: the service busy (503) during a card checkout, registered once its Retry-After has passed @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  await signedInWithTradeIn(page, sdk, shop, emulator);
  // The guide's curl: one 503, with the emulator's default Retry-After (30 s).
  await emulator.addFault({ endpoint: "register_purchase", status: 503, count: 1 });
  await addToCartAndCheckOut(page, "aurora-x1");
  await payByCard(page);
  await guide.shows(
    page.getByTestId("trade-in-outcome"),
    "Your order is placed. We are still confirming your trade-in with the trade-in service; this happens automatically and needs nothing from you.",
  );
  // The guide's "30 s": not due before it on the shop's clock, registered after it on both.
  expect(await advanceShopClock(25)).toMatchObject({ due: 0 });
  await emulator.advanceClock({ seconds: 31 });
  await advanceShopClock(6);
  // The job's call from this clock move, or its timer's, whichever came first: one receipt.
  await expect.poll(async () => (await emulator.registerPurchases()).length).toBe(1);
  await page.reload();
  await expect(page.getByTestId("trade-in-outcome")).toHaveAttribute("data-outcome", "registered");
});

test("a lost webhook: the order stays pending until the back office reconciles it with the service @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  await emulator.patchMerchant("m_demo", {
    webhook_base: "http://127.0.0.1:9/api/service/webhooks",
  });
  await signedInWithTradeIn(page, sdk, shop, emulator);
  await addToCartAndCheckOut(page, "aurora-x1");
  await shop.servicePayRadio().check();
  await placeOrder(page);
  await sdk.pay();
  await guide.shows(shop.orderStatus(), "Pending payment");
  await adminLogin(page);
  await page.getByRole("button", { name: "Reconcile with the service" }).click();
  await guide.shows(
    page.getByTestId("reconcile-report"),
    "1 repaired … moved from pending to payment_completed",
  );
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern
test("every sentence docs/demo.md quotes was seen on the screen @emulator", ({}, testInfo) => {
  skipWithPrerequisites(testInfo, "the journeys before it (the sentences they saw)");
  expect(guide.unchecked()).toEqual([]);
});
