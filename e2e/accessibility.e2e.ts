import { expect } from "@playwright/test";
import { test } from "../scripts/sdk-release/sdk-coverage";
import { addToCart, adminLogin } from "./fixtures";
import { seriousViolations } from "./support/axe";

test("home, product, cart and checkout have no serious or critical axe violation", async ({
  page,
}) => {
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
