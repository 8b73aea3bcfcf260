// The accepted trade-in in the shop's own amounts: product ("from … with your trade-in"), cart,
// the Service Pay option and "Total to pay". The value comes from the SDK's payment option
// details (contract: Payment option details › data.valuation); the sums are the shop's one
// formula, delivery included, as the service's window shows it (e2e/one-amount.e2e.ts).
import { SHOPPER } from "./fixtures";
import { sessionHashOf } from "./support/emulator";
import { expect, test } from "./support/fixtures";
import { sdkWarnings } from "./support/sdk-console";

const TRADE_IN = 42000; // €420.00 on an Aurora X1 at €799.00, standard delivery €4.99

test("an accepted €420 offer shows in the product price, the cart and the total to pay @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  await shop.startSignedIn();
  await emulator.createTradeIn({ session_hash: await sessionHashOf(page), value: TRADE_IN });
  await shop.addToCart("aurora-x1");
  await sdk.ready();

  await page.getByRole("link", { name: "View cart" }).click();
  await expect(page.getByTestId("total-with-trade-in")).toHaveText(
    "With your €420.00 trade-in: €383.99 to pay with Service Pay, standard delivery included",
  );
  // Seen once in this tab, the value follows the shopper to the product page (no call there).
  await page.getByRole("link", { name: "Aurora X1" }).click();
  await expect(page.getByTestId("product-trade-in-price")).toHaveText(
    "from €383.99 with your trade-in, standard delivery included",
  );
  await page.getByRole("link", { name: "Cart" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/cart");

  await page.getByRole("link", { name: "Go to checkout" }).click();
  await shop.expectServicePayMode("tradein_valid");
  await expect(page.getByTestId("checkout-total")).toHaveText("€803.99");
  await expect(page.getByTestId("service-pay-trade-in")).toHaveText(
    "Your €420.00 trade-in comes off the total: €383.99 to pay with Service Pay.",
  );
  await shop.servicePayRadio().check();
  await expect(page.getByTestId("checkout-trade-in-discount")).toHaveText("−€420.00");
  await expect(page.getByTestId("checkout-total")).toHaveText("€383.99");

  // Back to the card: the trade-in is not taken off a card payment (it is paid back later).
  await shop.cardRadio().check();
  await expect(page.getByTestId("checkout-total")).toHaveText("€803.99");
  await expect(page.getByTestId("checkout-trade-in-discount")).toHaveCount(0);
});

test("a promotion code comes off before the trade-in: the cart, the card total and what is left to pay with Service Pay @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  await shop.startSignedIn();
  await emulator.createTradeIn({ session_hash: await sessionHashOf(page), value: TRADE_IN });
  await shop.addToCart("aurora-x1");
  await sdk.ready();
  await page.getByRole("link", { name: "View cart" }).click();
  await expect(page.getByTestId("total-with-trade-in")).toContainText("€383.99 to pay");

  // €10.00 off: €799.00 − €10.00 + €4.99 delivery − €420.00 = €373.99.
  const status = await shop.applyPromotionCode("tenoff");
  await expect(status).toHaveText("TENOFF is applied to your cart.");
  await expect(page.getByTestId("cart-total")).toHaveText("€789.00");
  await expect(page.getByTestId("total-with-trade-in")).toHaveText(
    "With your €420.00 trade-in: €373.99 to pay with Service Pay, standard delivery included",
  );

  await page.getByRole("link", { name: "Go to checkout" }).click();
  await shop.expectServicePayMode("tradein_valid");
  await expect(page.getByTestId("cart-discount")).toHaveText("TENOFF (€10 off)−€10.00");
  await expect(page.getByTestId("checkout-total")).toHaveText("€793.99");
  await shop.servicePayRadio().check();
  await expect(page.getByTestId("checkout-trade-in-discount")).toHaveText("−€420.00");
  await expect(page.getByTestId("checkout-total")).toHaveText("€373.99");

  // In pounds the euro code takes nothing off, says why, and every total is the plain cart's.
  await page.goto("/cart");
  await shop.switchCurrency("GBP");
  await expect(page.getByTestId("idle-promotion")).toContainText(
    "TENOFF is for carts in EUR; your cart is in GBP.",
  );
  await expect(page.getByTestId("cart-discount")).toHaveCount(0);
  await expect(page.getByTestId("cart-total")).toHaveText("£699.00");
});

test("without a trade-in, or with one in another currency, prices stay as they are @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  await shop.startSignedIn();
  await shop.addToCart("aurora-x1");
  await sdk.ready();
  await expect(page.getByTestId("product-trade-in-price")).toBeEmpty();

  await emulator.createTradeIn({ session_hash: await sessionHashOf(page), value: TRADE_IN });
  await shop.switchCurrency("GBP");
  await page.reload();
  await sdk.ready();
  expect(await sdk.hasActiveTradeIn()).toBe(true);
  await expect(page.getByTestId("product-trade-in-price")).toBeEmpty();
  await shop.openCheckout();
  await shop.expectServicePayMode("tradein_invalid", "currency");
  await expect(page.getByTestId("service-pay-trade-in")).toBeEmpty();
  await expect(page.getByTestId("checkout-total")).toHaveText("£703.49");
});

test("a guest choosing Service Pay can log in and comes back to the checkout", async ({
  page,
  sdk,
  shop,
}) => {
  const warnings = sdkWarnings(page);
  const purchaseData: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith("/purchase_data"))
      purchaseData.push(request.url());
  });
  await shop.addToCart("aurora-x1");
  await shop.openCheckout();
  await sdk.ready();
  // Contract, Merchant endpoints: shopper_data's 404 is a guest, no failure: the SDK starts as
  // for anyone and says nothing in the console.
  expect(warnings.seen(), "the SDK's console for a guest").toEqual([]);
  // A guest's cart, address and email are nobody's purchase at the service: the SDK asks for
  // them only with a shopper's session hash to send them with. The option shown, it has asked.
  await expect(page.getByTestId("service-pay-state")).not.toHaveAttribute("data-mode", "loading");
  expect(purchaseData, "purchase_data asked for a guest").toEqual([]);
  await page.getByRole("link", { name: "log in and come back to checkout" }).click();
  await page.getByLabel("Email").fill(SHOPPER.email);
  await page.getByLabel("Password").fill(SHOPPER.password);
  await page.getByRole("main").getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/checkout");
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
  await expect(page.getByTestId("service-pay-login")).toHaveCount(0);
  await sdk.ready();
  await shop.expectServicePayMode("tradein_missing");
});
