// The integration inspector: a drawer that shows, in order, the SDK events,
// the callback calls, the service API calls and the webhooks of the current shopper, opened by a
// real button from the keyboard, with no serious axe violation, and nothing secret in its feed.
import { axeViolations } from "../scripts/axe-scan";
import { CARDS, fillCard } from "./fixtures";
import { type emulator as EmulatorClient, sessionHashOf } from "./support/emulator";
import { expect, test } from "./support/fixtures";
import { checkoutWithServicePay, tradeInFromBanner } from "./support/journeys";
import type { ServiceSdkDriver } from "./support/service-sdk-driver";
import type { ShopSteps } from "./support/shop";

/** A reset emulator and a logged-in shopper on the home page with the SDK ready. */
async function freshShopperAtHome(
  sdk: ServiceSdkDriver,
  shop: ShopSteps,
  emulator: typeof EmulatorClient,
) {
  await emulator.reset();
  await shop.startSignedIn();
  await shop.page.goto("/");
  await sdk.ready();
}

test("the drawer lists SDK events, callbacks, service API calls and the webhook, in order @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  await freshShopperAtHome(sdk, shop, emulator);
  // Desktop Chrome is under the docked width: the drawer starts collapsed.
  const toggle = page.getByRole("button", { name: /integration inspector/ });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  const drawer = page.getByTestId("integration-inspector");
  await expect(drawer).toBeHidden();

  await tradeInFromBanner(sdk, shop);
  const paid = await checkoutWithServicePay(sdk, shop);
  await expect(shop.orderStatus()).toHaveText("Paid");

  // Keyboard: focus the button, Enter opens, the state is announced by aria-expanded.
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(drawer).toBeVisible();
  const entries = drawer.getByRole("listitem");
  await expect(drawer).toContainText("POST /order order.payment_completed payment_completed");
  const texts = await entries.allTextContents();
  const index = (needle: string) => texts.findIndex((t) => t.includes(needle));
  for (const needle of [
    "service-ready",
    "GET shopper_data",
    "service-valuation-updated",
    "GET purchase_data",
    "service-ready-to-place-order",
    "service-payment-completed",
    "POST /order",
  ]) {
    expect(index(needle), `${needle} is listed`).toBeGreaterThanOrEqual(0);
  }
  expect(index("service-valuation-updated")).toBeLessThan(index("service-payment-completed"));
  // The webhook follows the payment, which follows ready-to-place-order; whether it arrives
  // before or after the SDK's own service-payment-completed is the network's choice.
  expect(index("service-ready-to-place-order")).toBeLessThan(index("POST /order"));
  expect(texts.join("\n")).toContain(
    `order ${await page.getByTestId("order-number").textContent()}`,
  );
  expect(paid.cart_id).toBeTruthy();

  const violations = await axeViolations(page, { include: '[aria-label="Integration inspector"]' });
  expect(violations.map((v) => v.id)).toEqual([]);

  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(drawer).toBeHidden();
});

test("the feed shows the shop's service API calls for this shopper only, with nothing secret @emulator", async ({
  page,
  browser,
  sdk,
  shop,
  emulator,
}) => {
  await freshShopperAtHome(sdk, shop, emulator);
  await tradeInFromBanner(sdk, shop);
  await shop.openCheckout();
  await shop.cardRadio().check();
  await fillCard(page, CARDS.success);
  await shop.placeOrder();
  await expect(page.getByTestId("trade-in-outcome")).toHaveAttribute("data-outcome", "registered");

  const feed = await page.evaluate(async () => (await fetch("/api/service/inspector")).text());
  const labels = (JSON.parse(feed) as { entries: { label: string }[] }).entries.map((e) => e.label);
  expect(labels).toContain("POST /register-purchase");
  expect(labels).toContain("register-purchase: registered");
  expect(labels.some((l) => /^GET \/core\/sessions\/[0-9a-f]{8}…\/$/.test(l))).toBe(true);
  const hash = await sessionHashOf(page);
  expect(feed).not.toContain(hash);
  expect(feed).not.toMatch(/access_token|refresh_token|Bearer/i);

  // Another shopper sees none of it.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto(new URL("/", page.url()).href);
  const theirs = await otherPage.evaluate(async () =>
    (await fetch("/api/service/inspector")).json(),
  );
  expect(theirs).toMatchObject({ entries: [] });
  await other.close();
});

test("plain card orders around a reset show no red line: the token renewal is explained @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  const plainCardOrder = async () => {
    await shop.addToCart("echo-buds-pro");
    await shop.openCheckout();
    await sdk.ready();
    await shop.cardRadio().check();
    await fillCard(page, CARDS.success);
    await shop.placeOrder();
    await expect(shop.orderStatus()).toHaveText("Paid");
  };
  await shop.startSignedIn();
  await plainCardOrder(); // the shop holds a token from before the reset
  await emulator.reset(); // the service forgets it: the next call is answered 401
  await page.goto("/");
  await sdk.ready();
  await plainCardOrder();

  await page.getByRole("button", { name: /integration inspector/ }).click();
  const drawer = page.getByTestId("integration-inspector");
  await expect(drawer).toContainText("register-purchase: no trade-in");
  const expected = drawer.locator('[data-expected="true"]');
  await expect(expected.filter({ hasText: "401" }).first()).toContainText(
    "the shop renews it and repeats the call",
  );
  await expect(expected.filter({ hasText: "POST /oauth2/token/" }).first()).toContainText(
    "the shop logs in again with its API credentials",
  );
  await expect(drawer.locator('[data-ok="false"]')).toHaveCount(0);
  // service-ready, once per page load, is one line with its count.
  const ready = drawer.getByRole("listitem").filter({ hasText: "service-ready" });
  await expect(ready).toHaveCount(1);
  await expect(ready).toContainText("×");
});
