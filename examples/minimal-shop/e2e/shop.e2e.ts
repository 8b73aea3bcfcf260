// The minimal shop's own journeys beyond the go-live scenarios (go-live.e2e.ts): how its service
// client and cart behave, through the emulator's real SDK screens (the driver the emulator's
// tarball ships, `service-emulator/go-live`).
import { expect, type Page, test } from "@playwright/test";
import {
  EmulatorControl,
  EVERYDAY_DEVICE,
  type GoLiveContext,
  ServiceSdkDriver,
} from "service-emulator/go-live";
import { CUSTOMER, EMULATOR_URL, identity, MINIMAL_SHOP } from "./minimal-shop-steps";

const emulator = new EmulatorControl(EMULATOR_URL);

// No uncaught exception in any page of a journey.
const pageErrors: string[] = [];
test.beforeEach(({ page }) => {
  pageErrors.length = 0;
  page.on("pageerror", (error) => pageErrors.push(error.message));
});
test.afterEach(() => expect(pageErrors).toEqual([]));

/** Signs in by the form, puts the laptop in the cart and accepts a trade-in in the SDK's wizard. */
async function signInCartAndTradeIn(page: Page): Promise<GoLiveContext> {
  const context = { emulator, sdk: await ServiceSdkDriver.attach(page) };
  await MINIMAL_SHOP.signIn?.(page, CUSTOMER, context);
  await MINIMAL_SHOP.addToCart(page, context);
  await context.sdk.ready();
  await context.sdk.openWizardFromTeaser("banner");
  await context.sdk.valueAndAccept(EVERYDAY_DEVICE.category, EVERYDAY_DEVICE.model);
  return context;
}

// The service client's token expiry, 401 and 429 backoff are the packaged readiness journey's
// (go-live.e2e.ts, `readiness`), judged by the readiness report itself.

test("sign-out replaces the identity: the next shopper here is another session at the service", async ({
  page,
}) => {
  await signInCartAndTradeIn(page);
  const before = await identity(page);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  const after = await identity(page);
  expect(after?.customerId).toBeUndefined();
  expect(after?.sessionId).not.toBe(before?.sessionId);
  expect(after?.salt).not.toBe(before?.salt);
});

test("a guest's cart is kept at sign-in, and a copy of the cookie taken before it opens nothing afterwards", async ({
  page,
  browser,
}) => {
  const context = { emulator, sdk: await ServiceSdkDriver.attach(page) };
  await page.goto("/");
  await page.getByRole("button", { name: "Add USB-C cable to cart" }).click();
  await expect(page.getByTestId("cart")).toContainText("1 × USB-C cable");
  const copied = await page.context().cookies();
  await MINIMAL_SHOP.signIn?.(page, CUSTOMER, context);
  await page.goto("/");
  await expect(page.getByTestId("cart")).toContainText("1 × USB-C cable");
  // Whoever holds the copy is a guest with an empty cart, not the customer with theirs.
  const other = await browser.newContext({ baseURL: new URL(page.url()).origin });
  await other.addCookies(copied);
  const stranger = await other.newPage();
  await stranger.goto("/");
  await expect(stranger.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(stranger.getByTestId("cart")).not.toContainText("USB-C cable");
  await other.close();
});

test("the cart is locked while a Service Pay payment is open, until the shopper cancels it", async ({
  page,
}) => {
  const context = await signInCartAndTradeIn(page);
  await MINIMAL_SHOP.openCheckout(page, context);
  await context.sdk.ready();
  await MINIMAL_SHOP.fillCheckout(page, context);
  await MINIMAL_SHOP.chooseServicePay(page, context);
  await MINIMAL_SHOP.placeOrder(page, context);
  await expect(context.sdk.paymentModal()).toBeVisible();
  // The shopper leaves the modal open and goes back to shopping.
  await page.goto("/");
  await page.getByRole("button", { name: "Add USB-C cable to cart" }).click();
  const locked = page.getByRole("alert").filter({ hasText: "A payment with the service is open" });
  await expect(locked).toBeVisible();
  await expect(page.getByTestId("cart")).not.toContainText("USB-C cable");
  await locked.getByRole("button", { name: "Cancel the payment to change the cart" }).click();
  await page.getByRole("button", { name: "Add USB-C cable to cart" }).click();
  await expect(page.getByTestId("cart")).toContainText("1 × USB-C cable");
});
