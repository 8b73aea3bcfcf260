import { expect } from "@playwright/test";
import { test } from "../scripts/sdk-release/sdk-coverage";
import { adminLogin, CARDS, cartCount, fillCard, placeOrder, SHOPPER } from "./fixtures";

test("browse, add to cart, switch currency, log in, pay by card, see the order in the back office", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Good tech, fairly priced" })).toBeVisible();

  await page
    .getByRole("navigation", { name: "Categories" })
    .getByRole("link", { name: "Phones" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Phones" })).toBeVisible();
  await page.getByRole("link", { name: "Aurora X1", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Aurora X1" })).toBeVisible();
  await expect(page.getByTestId("product-price")).toHaveText("€799.00");

  await page.getByLabel("Quantity").selectOption("2");
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("status")).toContainText("Added to your cart.");
  await expect(await cartCount(page)).toHaveText("2");

  // Switching currency keeps the page and re-prices the cart (the cart carries its currency).
  await page.getByRole("button", { name: "£ GBP" }).click();
  await expect(page.getByTestId("product-price")).toHaveText("£699.00");
  await expect(page.getByRole("button", { name: "£ GBP" })).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("link", { name: /^Cart/ }).click();
  await expect(page.getByTestId("cart-total")).toHaveText("£1,398.00");

  // Logging in keeps the cart.
  await page.getByRole("link", { name: "Go to checkout" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
  await page.getByRole("main").getByRole("link", { name: "Log in", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Log in" })).toBeVisible();
  await page.getByLabel("Email").fill(SHOPPER.email);
  await page.getByLabel("Password").fill(SHOPPER.password);
  await page.getByRole("main").getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/checkout");
  await expect(await cartCount(page)).toHaveText("2");

  // The saved address fills the form; express delivery in GBP is £12.99.
  await expect(page.locator("#billing_given_name")).toHaveValue("Jamie");
  await expect(page.locator("#email")).toHaveValue(SHOPPER.email);
  await page.getByLabel(/Express delivery/).check();
  await expect(page.getByTestId("checkout-total")).toHaveText("£1,410.99");
  await expect(page.getByText(CARDS.success)).toBeVisible();
  await fillCard(page, CARDS.success);
  await placeOrder(page);

  await expect(page).toHaveURL((url) => url.pathname === "/checkout/confirmation");
  await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
  await expect(page.getByTestId("order-status")).toHaveText("Paid");
  await expect(page.getByTestId("order-total")).toHaveText("£1,410.99");
  const orderNumber = (await page.getByTestId("order-number").textContent()) ?? "";
  expect(orderNumber).toMatch(/^SO-\d{8}-[0-9A-F]{6}$/);
  await expect(await cartCount(page)).toHaveText("0");

  // The confirmation page needs no query parameter: reloading shows the same order.
  await page.reload();
  await expect(page.getByTestId("order-number")).toHaveText(orderNumber);

  await adminLogin(page);
  await page.getByLabel("Order, email or service order id").fill(orderNumber);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByTestId("admin-order-row")).toHaveCount(1);
  await page.getByRole("link", { name: orderNumber }).click();
  await expect(page.getByRole("heading", { name: `Order ${orderNumber}` })).toBeVisible();
  await expect(page.getByTestId("admin-order-status")).toHaveText("Paid");
  await expect(page.getByRole("rowheader", { name: "Aurora X1" })).toBeVisible();
  await expect(page.getByTestId("status-history")).toContainText(
    "The shop changed the status from Pending payment to Paid",
  );

  await page.getByLabel("New status").selectOption("shipped");
  await page.getByRole("button", { name: "Change status" }).click();
  await expect(page.getByTestId("admin-order-status")).toHaveText("Shipped");
  await expect(page.getByTestId("status-history")).toContainText(
    "The back office changed the status from Paid to Shipped",
  );
});

test("search finds products by name and description", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("searchbox", { name: "Search products" }).fill("noise cancelling");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Results for “noise cancelling”",
  );
  await expect(page.getByRole("link", { name: "Echo Buds Pro" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Echo Over-Ear ANC" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Aurora X1", exact: true })).toHaveCount(0);
  // The query stays in the box, to refine it.
  await expect(page.getByRole("searchbox", { name: "Search products" })).toHaveValue(
    "noise cancelling",
  );
});

test("a search with no result and an unknown address offer a way on, in the shop's layout", async ({
  page,
}) => {
  await page.goto("/search?q=zzzz");
  await expect(page.getByTestId("no-results")).toContainText("Nothing matches “zzzz”");
  await page.getByTestId("no-results").getByRole("link", { name: "Audio" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/category/audio");

  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle("Page not found · Circuit & Co.");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  await expect(page.getByRole("banner").getByRole("link", { name: "Cart" })).toBeVisible();
});

test("the back office needs the admin login", async ({ page }) => {
  await page.goto("/admin");
  await expect(page).toHaveURL((url) => url.pathname === "/admin/login");
  await page.getByLabel("Email").fill("admin@example.com");
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    "Wrong admin email or password.",
  );
});
