import { expect } from "@playwright/test";
import { test } from "../scripts/sdk-release/sdk-coverage";
import { addToCart, CARDS, cartCount, fillAddress, fillCard, placeOrder } from "./fixtures";

test("a declined card places no order and keeps the cart", async ({ page }) => {
  await addToCart(page, "echo-buds-pro");
  await page.goto("/checkout");
  await page.getByLabel("Email").fill("robin@example.com");
  await fillAddress(page, "billing");
  await fillCard(page, CARDS.declined);
  await placeOrder(page);

  await expect(page.getByTestId("checkout-error")).toContainText("Your card was declined");
  await expect(page).toHaveURL((url) => url.pathname === "/checkout");
  await expect(page.locator("#billing_city")).toHaveValue("Cork");
  await expect(await cartCount(page)).toHaveText("1");
  await page.goto("/checkout/confirmation");
  await expect(page.getByRole("heading", { name: "No order yet" })).toBeVisible();
});

test("server-side validation shows inline messages", async ({ page }) => {
  await addToCart(page, "slate-11");
  await page.goto("/checkout");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel(/Deliver to my billing address/).uncheck();
  await placeOrder(page);

  const alert = page.getByTestId("checkout-error");
  await expect(alert).toContainText("Please correct the highlighted fields.");
  await expect(page.locator("#email")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#email-error")).toHaveText(
    "Enter an email address like name@example.com.",
  );
  await expect(page.locator("#billing_given_name-error")).toHaveText("Enter a first name.");
  await expect(page.locator("#shipping_city-error")).toHaveText("Enter a town or city.");
  await expect(page.locator("#card_number-error")).toHaveText("Enter a valid card number.");
});

test("an empty cart cannot check out", async ({ page, context }) => {
  await page.goto("/checkout");
  await expect(page.getByTestId("empty-cart")).toBeVisible();
  await expect(page.getByRole("button", { name: "Place order" })).toHaveCount(0);

  // A checkout form opened before the cart was emptied is refused by the server too.
  await addToCart(page, "pulse-speaker-go");
  await page.goto("/checkout");
  await page.getByLabel("Email").fill("robin@example.com");
  await fillAddress(page, "billing");
  await fillCard(page, CARDS.success);
  const other = await context.newPage();
  await other.goto("/cart");
  await other.getByRole("button", { name: /Remove/ }).click();
  await expect(other.getByTestId("empty-cart")).toBeVisible();

  await placeOrder(page);
  await expect(page.getByTestId("checkout-error")).toHaveText("Your cart is empty.");
  await expect(page).toHaveURL((url) => url.pathname === "/checkout");
});

test("cart quantities change and lines are removed", async ({ page }) => {
  await addToCart(page, "orbit-soundbar");
  await page.goto("/cart");
  await page.getByLabel("Quantity").selectOption("3");
  await page.getByRole("button", { name: "Update Orbit Soundbar" }).click();
  await expect(page.getByTestId("cart-total")).toHaveText("€1,047.00");
  await expect(await cartCount(page)).toHaveText("3");
  await page.getByRole("button", { name: "Remove Orbit Soundbar" }).click();
  await expect(page.getByTestId("empty-cart")).toBeVisible();
});

test("the session cookie is sealed, httpOnly and SameSite=Lax, and the id is never rendered", async ({
  page,
  context,
}) => {
  await page.goto("/");
  const cookie = (await context.cookies()).find((c) => c.name === "shop_session");
  expect(cookie).toBeDefined();
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe("Lax");
  expect(cookie?.value.startsWith("Fe26.2*")).toBe(true);
  const html = await page.content();
  expect(html).not.toMatch(/[0-9a-f]{64}/);
});
