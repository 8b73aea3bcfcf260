// When the service's SDK cannot load (service down, blocked by the shopper's browser), the shop
// keeps working: no uncaught error, no teaser, no Service Pay option, card checkout as usual
// (contract, Front-end SDK); the same when the SDK refuses the page's configuration. Not tagged:
// it needs no control API, so it runs against any SDK build.

import type { Page } from "@playwright/test";
import { CARDS, fillCard } from "./fixtures";
import { expect, test } from "./support/fixtures";

test("the SDK cannot load: the shop still works and the service's option is simply absent", async ({
  page,
  shop,
}) => {
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  // Any SDK build's address ends in /v1/main.js (contract: Versioning).
  await page.route("**/v1/main.js", (route) => route.abort("connectionrefused"));

  await page.goto("/");
  const html = page.locator("html");
  await expect(html).toHaveAttribute("data-service-sdk", "unavailable");
  await expect(page.locator(".service-teaser").first()).toBeAttached();
  await expect(page.locator("[data-service-teaser]")).toHaveCount(0);

  await shop.login();
  await shop.addToCart("aurora-x1");
  await shop.openCheckout();
  await expect(html).toHaveAttribute("data-service-sdk", "unavailable");
  await shop.expectServicePayMode("no-sdk");
  await expect(shop.servicePayRadio()).toHaveCount(0);
  await expect(shop.cardRadio()).toBeChecked();
  await fillCard(page, CARDS.success);
  await shop.placeOrder();
  await expect(page).toHaveURL((url) => url.pathname === "/checkout/confirmation");
  await expect(shop.orderStatus()).toHaveText("Paid");

  // Only the browser's own note about the refused module; the shop logs a warning, not an error.
  for (const text of consoleErrors) expect(text).toMatch(/Failed to load resource|main\.js/);
});

/** The page's window.serviceConfiguration as the shop sets it, with `changes` on top (the shop
 *  assigns it just before importing the SDK; the property's setter keeps everything else). */
async function configureWith(page: Page, changes: Record<string, string>) {
  await page.addInitScript((over: Record<string, string>) => {
    let configuration: unknown;
    Object.defineProperty(window, "serviceConfiguration", {
      configurable: true,
      get: () => configuration,
      set: (value: Record<string, unknown>) => {
        configuration = { ...value, ...over };
      },
    });
  }, changes);
}

test("a configuration value of only spaces is refused as missing: the SDK does not start, the console says which keys it needs, and the shop keeps working without the option", async ({
  page,
  shop,
}) => {
  const warnings: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "warning") warnings.push(message.text());
  });
  // The shop's developer leaves merchantId blank in the environment: spaces are no merchant
  // (contract, Front-end SDK: merchantId, browserCallbackBase and confirmUrl are required).
  await configureWith(page, { merchantId: "   " });

  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-service-sdk", "unavailable");
  // The SDK's own words, in the warning the shop logs when the SDK cannot start.
  expect(
    warnings.filter((w) =>
      w.includes(
        "window.serviceConfiguration needs merchantId, browserCallbackBase and confirmUrl",
      ),
    ),
  ).toHaveLength(1);
  await expect(page.locator(".service-teaser").first()).toBeAttached();
  await expect(page.locator("[data-service-teaser]")).toHaveCount(0);
  await shop.login();
  await shop.addToCart("aurora-x1");
  await shop.openCheckout();
  await shop.expectServicePayMode("no-sdk");
  await expect(shop.cardRadio()).toBeChecked();
});

test("an optional configuration value of only spaces is taken as absent: products of spaces is the contract's default, valuations, so the checkout's option is unavailable and the card checkout works", async ({
  page,
  shop,
}) => {
  const warnings: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "warning") warnings.push(message.text());
  });
  // Contract, Front-end SDK: products defaults to `valuations`; a blank value is no value.
  await configureWith(page, { products: "   " });
  await shop.login();
  await shop.addToCart("aurora-x1");
  const asked = page.waitForRequest(
    (request) =>
      request.method() === "POST" && new URL(request.url()).pathname === "/sdk/v1/payment-option",
  );
  await shop.openCheckout();
  // What the SDK tells the service the page enabled, read as the browser sends it.
  expect((await asked).postDataJSON()).toMatchObject({ products: "valuations" });
  await expect(page.locator("html")).toHaveAttribute("data-service-sdk", "ready");
  await shop.expectServicePayMode("unavailable");
  await expect(shop.cardRadio()).toBeChecked();
  expect(warnings.filter((w) => w.includes("serviceConfiguration"))).toEqual([]);
});
