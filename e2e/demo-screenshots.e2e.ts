// Takes the sales demo guide's screenshots (docs/screenshots/*.png) by running the demo's
// scenario 2 in a wide window, where the integration inspector opens by itself. A tool, not a
// check: it runs only with DEMO_SCREENSHOTS=1 (npm run build first):
//   DEMO_SCREENSHOTS=1 npx playwright test e2e/demo-screenshots.e2e.ts
import { CARDS, fillCard } from "./fixtures";
import { expect, test } from "./support/fixtures";

const DIR = "docs/screenshots";

test.use({ viewport: { width: 1440, height: 900 } });
test.skip(
  !process.env.DEMO_SCREENSHOTS,
  "set DEMO_SCREENSHOTS=1 to retake docs/demo.md's screenshots",
);

test("sales demo screenshots @emulator", async ({ page, sdk, shop, emulator }) => {
  test.setTimeout(90_000);
  await emulator.reset();
  await shop.login();
  await page.goto("/");
  await sdk.ready();
  await sdk.openWizardFromTeaser("banner");
  await sdk.valueDevice("Phones", "Aurora 15");
  await page.screenshot({ path: `${DIR}/1-valuation-offer.png` });
  await sdk.acceptOffer();
  await sdk.expectOfferShown("banner");
  const inspector = page.getByTestId("integration-inspector");
  await expect(inspector).toBeVisible();
  await expect(inspector).toContainText("service-valuation-updated");
  await page.screenshot({ path: `${DIR}/2-offer-and-inspector.png` });

  await shop.addToCart("aurora-x1");
  await shop.openCheckout();
  await sdk.ready();
  await shop.expectServicePayMode("tradein_valid");
  await page.screenshot({ path: `${DIR}/3-checkout-payment-options.png`, fullPage: true });

  await shop.cardRadio().check();
  await fillCard(page, CARDS.success);
  await shop.placeOrder();
  await expect(page.getByTestId("trade-in-outcome")).toHaveAttribute("data-outcome", "registered");
  await expect(inspector).toContainText("POST /register-purchase");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${DIR}/4-card-order-trade-in-registered.png` });
  const number = (await page.getByTestId("order-number").textContent()) ?? "";

  await page.goto("/admin/login");
  await page.getByLabel("Email").fill("admin@example.com");
  await page.getByLabel("Password").fill("admin-demo-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Reconcile with the service" }).click();
  await expect(page.getByTestId("reconcile-report")).toContainText("Listed");
  await page.screenshot({ path: `${DIR}/5-admin-reconcile.png` });
  await page.getByRole("link", { name: number }).click();
  await page.getByRole("button", { name: "Mark shipped" }).click();
  await expect(page.getByTestId("admin-order-status")).toHaveText("Shipped");
  await page.getByTestId("order-updates").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${DIR}/6-admin-order-update.png`, fullPage: true });
});
