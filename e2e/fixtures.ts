import { expect, type Page } from "@playwright/test";

export const SHOPPER = { email: "shopper@example.com", password: "shopper-demo-password" };
export const ADMIN = { email: "admin@example.com", password: "admin-demo-password" };
export const CARDS = { success: "4242 4242 4242 4242", declined: "4000 0000 0000 0002" };

/** Opens a product page and adds it to the cart, waiting for the shop's confirmation. */
export async function addToCart(page: Page, slug: string, quantity = 1) {
  await page.goto(`/products/${slug}`);
  await page.getByLabel("Quantity").selectOption(String(quantity));
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("status")).toContainText("Added to your cart.");
}

export async function cartCount(page: Page) {
  return page.locator(".cart-link__count");
}

export async function fillAddress(page: Page, prefix: "billing" | "shipping") {
  await page.locator(`#${prefix}_given_name`).fill("Robin");
  await page.locator(`#${prefix}_family_name`).fill("Byrne");
  await page.locator(`#${prefix}_address`).fill("5 Harbour Road");
  await page.locator(`#${prefix}_city`).fill("Cork");
  await page.locator(`#${prefix}_postal_code`).fill("T12 AB34");
  await page.locator(`#${prefix}_country_code`).selectOption("IE");
  await page.locator(`#${prefix}_phone`).fill("+353 21 555 0199");
}

export async function fillCard(page: Page, number: string) {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry (MM/YY)").fill("12/39");
  await page.getByLabel("Security code").fill("123");
}

/**
 * Clicks Place order once the payment methods have settled, as a person reads the page before
 * clicking. Until then a click can be lost two ways: the service's option and its trade-in line
 * appear above the button only once the SDK answers, moving it down, so a click aimed before lands
 * beside it; and a click before hydration reaches a form whose handlers are not attached yet. The
 * option's `data-mode` leaves `loading` only after both.
 */
export async function placeOrder(page: Page) {
  await expect(page.getByTestId("service-pay-state")).not.toHaveAttribute("data-mode", "loading");
  await page.getByRole("button", { name: "Place order" }).click();
}

export async function adminLogin(page: Page) {
  await page.goto("/admin/login");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Orders" })).toBeVisible();
}
