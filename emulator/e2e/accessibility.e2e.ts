import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

async function axe(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    targets: v.nodes.map((n) => n.target.join(" ")),
  }));
}

test("the teasers and every wizard step pass an axe scan", async ({ shop, page }) => {
  await shop.open();
  expect(await axe(page)).toEqual([]);
  await shop.teasers("banner").first().getByRole("button").click();
  const wizard = shop.wizard();
  await expect(wizard.getByText("Step 1 of 3")).toBeVisible();
  expect(await axe(page)).toEqual([]);
  await wizard.getByLabel("Category").selectOption({ label: "Phones" });
  await wizard.getByLabel("Model").selectOption({ index: 1 });
  await wizard.getByRole("button", { name: "Next" }).click();
  await expect(wizard.getByText("Step 2 of 3")).toBeVisible();
  expect(await axe(page)).toEqual([]);
  for (const group of await wizard.getByRole("group").all()) {
    await group.getByRole("radio").first().check();
  }
  await wizard.getByRole("button", { name: "Get offer" }).click();
  await expect(wizard.getByText("Step 3 of 3")).toBeVisible();
  expect(await axe(page)).toEqual([]);
});

test("the payment modal passes an axe scan", async ({ shop, page }) => {
  await shop.open();
  await shop.valuate("Test devices", "Test phone: offer of 10.00 (test)");
  await expect(shop.teasers("banner").first()).toHaveAttribute("data-state", "offer");
  expect(await axe(page)).toEqual([]);
  await page.getByLabel("Pay with Service").check();
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(shop.payment().getByRole("button", { name: "Pay now" })).toBeVisible();
  expect(await axe(page)).toEqual([]);
});
