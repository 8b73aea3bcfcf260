// Logging in and out must reach the service's SDK: it reads the shopper once per page load
// (contract, Front-end SDK: no refresh method), so every auth change ends in a full page load.
// Clicked as a person does it, with no reload a person would not do.
import { SHOPPER } from "./fixtures";
import { expect, test } from "./support/fixtures";

test("after logging in by clicking, Calculate discount values a device, with no reload", async ({
  page,
  sdk,
}) => {
  await page.goto("/");
  await sdk.ready();
  await sdk.openWizardFromTeaser("banner");
  await sdk.expectWizardAsksToLogIn();
  await sdk.closeWizard();

  await page.getByRole("banner").getByRole("link", { name: "Log in" }).click();
  await page.getByLabel("Email").fill(SHOPPER.email);
  await page.getByLabel("Password").fill(SHOPPER.password);
  await page.getByRole("main").getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/account");
  await expect(page.getByRole("banner").getByRole("link", { name: "My account" })).toBeVisible();

  await page.getByRole("link", { name: "Continue shopping" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/");
  await sdk.ready();
  await sdk.openWizardFromTeaser("banner");
  await sdk.expectWizardAsksForDevice();
});

test("after logging out by clicking, the wizard is no longer the previous shopper's", async ({
  page,
  sdk,
  shop,
}) => {
  await shop.login();
  await page.goto("/");
  await sdk.ready();
  await sdk.openWizardFromTeaser("banner");
  await sdk.expectWizardAsksForDevice();
  await sdk.closeWizard();

  await page.getByRole("banner").getByRole("link", { name: "My account" }).click();
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/");
  await expect(page.getByRole("banner").getByRole("link", { name: "Log in" })).toBeVisible();
  await sdk.ready();
  await sdk.openWizardFromTeaser("banner");
  await sdk.expectWizardAsksToLogIn();
});

test("a wrong password stays on the login page with the reason, still anonymous", async ({
  page,
  sdk,
}) => {
  await page.goto("/account/login");
  await page.getByLabel("Email").fill(SHOPPER.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("main").getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("do not match an account");
  await expect(page).toHaveURL((url) => url.pathname === "/account/login");
  await expect(page.getByRole("banner").getByRole("link", { name: "Log in" })).toBeVisible();
  await sdk.ready();
});
