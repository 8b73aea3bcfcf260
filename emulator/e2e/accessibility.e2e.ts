import type { Page } from "@playwright/test";
import { axeViolations, WCAG_AA } from "../../scripts/axe-scan";
import { expect, test } from "./fixtures";

async function axe(page: Page) {
  const violations = await axeViolations(page, { tags: [...WCAG_AA, "best-practice"] });
  return violations.map((v) => ({
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
