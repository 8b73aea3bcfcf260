import { expect, test } from "@playwright/test";
import { addToCart, adminLogin } from "./fixtures";
import { seriousViolations } from "./support/axe";

test("home, product, cart and checkout have no serious or critical axe violation", async ({
  page,
}) => {
  // Five whole-page axe runs: on the 2-core CI machine, while the SDK's own suite runs beside
  // this one, they need more than the default 30 s.
  test.setTimeout(60_000);
  await page.goto("/");
  expect(await seriousViolations(page)).toEqual([]);

  await addToCart(page, "vertex-14-air");
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto("/cart");
  await expect(page.getByTestId("cart-line")).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto("/checkout");
  await expect(page.getByRole("button", { name: "Place order" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // With inline errors showing, too.
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page.getByTestId("checkout-error")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test("the back office sign-in and orders list have no serious or critical axe violation", async ({
  page,
}) => {
  await page.goto("/admin/login");
  expect(await seriousViolations(page)).toEqual([]);
  await adminLogin(page);
  expect(await seriousViolations(page)).toEqual([]);
});
