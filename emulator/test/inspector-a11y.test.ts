import AxeBuilder from "@axe-core/playwright";
import { type Browser, chromium } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_LAUNCH_OPTIONS } from "../../scripts/chromium-launch";
import { type Harness, startEmulator } from "./harness";

// The live inspector in real Chromium: it shows requests as they arrive (polling the journal)
// and passes axe in both colour schemes.

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

    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((v) => `${scheme}: ${v.id}`)).toEqual([]);
    }
    await context.close();
  }, 30_000);
});
