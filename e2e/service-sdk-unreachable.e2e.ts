// When the service's SDK cannot load (service down, blocked by the shopper's browser), the shop
// keeps working: no uncaught error, no teaser, no Service Pay option, card checkout as usual
// (contract, Front-end SDK). Not tagged: it needs no control API, so it runs against any SDK build.
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
