// A shopper and a back-office person on a phone (390 px wide): nothing wider than the screen,
// no amount split across lines, the inspector's button covers nothing, and a declined card's
// message is brought into view and focused.
import type { Page } from "@playwright/test";
import { test as base } from "../scripts/sdk-release/sdk-coverage";
import { addToCart, adminLogin, CARDS, fillAddress, fillCard } from "./fixtures";
import { expect, test } from "./support/fixtures";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    screen: document.documentElement.clientWidth,
  }));
  expect(widths.page, "the page is no wider than the screen").toBeLessThanOrEqual(widths.screen);
}

test("checkout at 390 px: no overflow; a declined card's message in view, focused, and the cleared card explained", async ({
  page,
  sdk,
  shop,
}) => {
  await shop.startSignedIn();
  await shop.addToCart("aurora-x1");
  await shop.openCheckout();
  await sdk.ready();
  await shop.expectServicePayMode("tradein_missing");
  await expectNoSidewaysScroll(page);
  // Nothing of the payment box is cut off at the right edge.
  for (const part of [
    page.getByLabel("Security code"),
    page.getByText("Test cards:"),
    shop.servicePayOption(),
  ]) {
    const box = await part.boundingBox();
    expect(box && box.x + box.width <= 390).toBe(true);
  }

  await page.getByLabel("Email").fill("robin@example.com");
  await fillAddress(page, "billing");
  await fillCard(page, CARDS.declined);
  await page.getByRole("button", { name: "Place order" }).click();
  const alert = page.getByTestId("checkout-error");
  await expect(alert).toContainText("Your card was declined");
  await expect(alert).toBeInViewport();
  await expect(alert).toBeFocused();
  await expect(alert).toContainText("enter them again");
  await expect(page.getByLabel("Card number")).toHaveValue("");
  await expectNoSidewaysScroll(page);
});

test("the inspector's button sits after the page on a phone, covering nothing", async ({
  page,
  sdk,
}) => {
  await page.goto("/products/aurora-x1");
  await sdk.ready();
  const toggle = page.getByRole("button", { name: /integration inspector/ });
  const footer = page.getByRole("contentinfo");
  // Scrolled to the price, the button is not over it (it is not fixed to the screen).
  await page.getByTestId("product-price").scrollIntoViewIfNeeded();
  await expect(toggle).not.toBeInViewport();
  const [button, end] = [await toggle.boundingBox(), await footer.boundingBox()];
  expect(button && end && button.y >= end.y + end.height - 1).toBe(true);
  await expectNoSidewaysScroll(page);
});

base.describe("back office", () => {
  base.use({ viewport: { width: 390, height: 844 } });
  base(
    "the order list at 390 px does not scroll sideways; /admin/orders is the list",
    async ({ page }) => {
      await addToCart(page, "echo-buds-pro");
      await page.goto("/checkout");
      await page.getByLabel("Email").fill("robin@example.com");
      await fillAddress(page, "billing");
      await fillCard(page, CARDS.success);
      await page.getByRole("button", { name: "Place order" }).click();
      await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
      await expectNoSidewaysScroll(page);

      await adminLogin(page);
      await expect(page.getByTestId("admin-order-row").first()).toBeVisible();
      await expectNoSidewaysScroll(page);
      await page.goto("/admin/orders");
      await expect(page).toHaveURL((url) => url.pathname === "/admin");
      await expect(page.getByRole("heading", { name: "Orders" })).toBeVisible();
    },
  );
});
