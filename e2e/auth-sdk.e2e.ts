// Logging in and out must reach the service's SDK: it reads the shopper once per page load
// (contract, Front-end SDK: no refresh method), so every auth change ends in a full page load.
// Clicked as a person does it, with no reload a person would not do.
import type { Request } from "@playwright/test";
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

test("the SDK asks the shop who the shopper is as the contract says: shopper_data, a GET on the page's own origin carrying the shopper's session cookie, answered 200", async ({
  context,
  page,
  sdk,
  shop,
}) => {
  await shop.login();
  // The signed-in page's own start-up ends first: its shopper_data call is not the one counted.
  await sdk.ready();
  const asked: Request[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith("/shopper_data")) asked.push(request);
  });
  await page.goto("/");
  await sdk.ready();
  // Contract, Merchant endpoints (rule 1: same-origin, from the SDK in the merchant's page) and
  // Authentication (rule 7: the callbacks rely on the shopper's own session cookie). The
  // contract and the public docs ask nothing else of the request (no header of its own).
  expect(asked).toHaveLength(1);
  const request = asked[0] as Request;
  expect(request.method()).toBe("GET");
  expect(new URL(request.url()).origin).toBe(new URL(page.url()).origin);
  const session = (await context.cookies()).find((c) => c.name === "shop_session");
  expect(session, "the shop's session cookie").toBeDefined();
  expect((await request.allHeaders()).cookie ?? "").toContain(
    `shop_session=${session?.value ?? ""}`,
  );
  expect((await request.response())?.status()).toBe(200);
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
