// What the shopper pays for is fixed once the service's payment window is open
// (docs/decisions/payment-matching.md): a second tab cannot change the cart under an open
// payment, so the order that is paid is exactly the cart the service was shown. Two tabs of one
// browser, as a shopper would have them.
import { expect, test } from "./support/fixtures";
import { tradeInFromBanner } from "./support/journeys";

test("a cart change in a second tab is refused while the Service Pay window is open; the paid order is the cart the service showed", async ({
  page,
  context,
  sdk,
  shop,
}) => {
  // The valuation is saved to the shopper's account (the wizard asks to log in first).
  await shop.startSignedIn();
  await page.goto("/");
  await sdk.ready();
  await tradeInFromBanner(sdk, shop);
  await shop.openCheckout();
  await sdk.ready();
  await shop.expectServicePayMode("tradein_valid");
  await page.getByLabel("Pay with Service").check();
  await shop.placeOrder();
  const shown = await sdk.paymentAmounts();
  // The service's cart: the phone and the standard delivery, a line of its own.
  expect(shown.cartTotal).toContain("803.99");

  // The second tab: adding an item is refused, and says why.
  const other = await context.newPage();
  await other.goto("/products/echo-buds-pro");
  await other.getByRole("button", { name: "Add to cart" }).click();
  await expect(other.getByRole("status")).toContainText("A payment with Service is open");
  await other.goto("/cart");
  await expect(other.getByTestId("payment-open")).toBeVisible();
  await expect(other.getByTestId("cart-line")).toHaveCount(1);
  // Changing a quantity is refused the same way.
  await other.getByLabel("Quantity").selectOption("3");
  await other.getByRole("button", { name: /^Update/ }).click();
  await expect(other.getByLabel("Quantity")).toHaveValue("1");

  // The first tab pays: the order holds exactly the one line the service was shown, and is paid.
  await sdk.pay();
  await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
  await expect(shop.orderStatus()).toHaveText("Paid");
  await expect(page.getByRole("row").filter({ hasText: "Echo Buds Pro" })).toHaveCount(0);

  // Once the order exists the cart is free again: a new purchase starts in the second tab.
  await other.goto("/products/echo-buds-pro");
  await other.getByRole("button", { name: "Add to cart" }).click();
  await expect(other.getByRole("status")).toContainText("Added to your cart.");
});
