import AxeBuilder from "@axe-core/playwright";
import { type Browser, chromium, type Page } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_LAUNCH_OPTIONS } from "../../scripts/chromium-launch";
import { type Harness, startEmulator } from "./harness";

// The live inspector in real Chromium: it shows requests as they arrive (polling the journal),
// its buttons work at phone size, the readiness page links its evidence, and both pass axe.

let h: Harness;
let browser: Browser;
beforeAll(async () => {
  h = await startEmulator();
  browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
}, 30_000);
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

/** axe in the light and the dark colour scheme. */
async function expectNoAxeViolations(page: Page) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => `${scheme}: ${v.id}`)).toEqual([]);
  }
}

describe("inspector page", () => {
  it("lists requests live and has no axe violations in light or dark mode", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${h.url}/__emulator/`);
    await expect.poll(() => page.locator("#status").textContent()).toContain("0 of 0");

    await h.fetch("/core/merchants/"); // 401, journaled
    const row = page.locator("#rows tr").first();
    await row.waitFor();
    expect(await row.textContent()).toContain("/core/merchants/");
    expect(await row.textContent()).toContain("401");

    await expectNoAxeViolations(page);
    await context.close();
  }, 30_000);

  it("resets, moves the clock and adds and removes a fault by its buttons, at phone size", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${h.url}/__emulator/`);
    await page.getByRole("button", { name: "+1 h" }).click();
    await expect.poll(() => page.locator("#clock").textContent()).toContain("moved 60 min");
    await page.getByLabel("Endpoint").selectOption("session");
    await page.getByRole("button", { name: "Add fault" }).click();
    const faults = page.getByRole("list", { name: "Faults in force" });
    await expect.poll(() => faults.textContent()).toContain("session → 503");
    await faults.getByRole("button", { name: /Remove fault/ }).click();
    await expect.poll(() => faults.locator("li").count()).toBe(0);
    await page.getByRole("button", { name: "Reset to the seed" }).click();
    await expect.poll(() => page.locator("#clock").textContent()).not.toContain("moved");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await context.close();
  }, 30_000);

  it("shows the readiness report with linked evidence, runs the active checks and passes axe", async () => {
    await h.fetch("/__emulator/test-merchant/inspector/");
    await h.control("POST", "/test-merchant/careless", { mistake: "api.path-form" });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${h.url}/__emulator/readiness/page?merchant=m_test`);
    const rule = page.locator("#rule-api\\.path-form");
    await expect.poll(() => rule.getAttribute("data-verdict")).toBe("fail");
    const link = rule.getByRole("link").first();
    expect(await link.getAttribute("href")).toMatch(/^\/__emulator\/journal\/\d+$/);
    await page.getByRole("button", { name: "Run active webhook checks" }).click();
    await expect
      .poll(() => page.getByRole("status").textContent(), { timeout: 15_000 })
      .toBe("Active checks done.");
    expect(await page.locator("#rule-webhook\\.valid").getAttribute("data-verdict")).toBe("pass");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await expectNoAxeViolations(page);
    await context.close();
  }, 30_000);
});
