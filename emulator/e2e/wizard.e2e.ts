import type { Locator, Page } from "@playwright/test";
import { A_MESSAGE, expect, ownMerchant, type Shop, test } from "./fixtures";

/** The focused element, looking through shadow roots; described for assertions. */
function focused(page: Page) {
  return page.evaluate(() => {
    let active: Element | null = document.activeElement;
    const hosts: string[] = [];
    while (active?.shadowRoot?.activeElement) {
      hosts.push(
        active.getAttribute("data-service-modal") ??
          active.getAttribute("data-service-teaser") ??
          "",
      );
      active = active.shadowRoot.activeElement;
    }
    return {
      hosts,
      tag: active?.tagName.toLowerCase() ?? "",
      name: active?.getAttribute("aria-label") ?? active?.textContent?.trim() ?? "",
    };
  });
}

/**
 * The background of each named button of `dialog`, and of a plain button of the page (the
 * browser's own look). Compared, never fixed colours: a candidate SDK may have its own theme.
 */
async function buttonBackgrounds(dialog: Locator, names: string[]) {
  const plain = await dialog.page().evaluate(() => {
    const button = document.createElement("button");
    document.body.append(button);
    const background = getComputedStyle(button).backgroundColor;
    button.remove();
    return background;
  });
  const of: Record<string, string> = {};
  for (const name of names) {
    of[name] = await dialog
      .getByRole("button", { name, exact: true })
      .evaluate((button) => getComputedStyle(button).backgroundColor);
  }
  return { plain, of };
}

/** The step's main action stands out from its way back, and neither is the browser's bare button. */
async function expectActionsStyled(dialog: Locator, main: string, back: string) {
  const { plain, of } = await buttonBackgrounds(dialog, [main, back]);
  expect(of[main], `${main}: the SDK's look, not the browser's`).not.toBe(plain);
  expect(of[back], `${back}: the SDK's look, not the browser's`).not.toBe(plain);
  expect(of[main], `${main} stands out from ${back}`).not.toBe(of[back]);
}

test("the whole valuation by keyboard alone, with its events and focus returned", async ({
  shop,
  page,
}) => {
  await shop.open();
  // Tab from the top of the page to the first teaser's call to action.
  await page.locator("h1").click();
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press("Tab");
    const now = await focused(page);
    if (now.name === "Calculate discount") break;
  }
  expect(await focused(page)).toMatchObject({ hosts: ["banner"], name: "Calculate discount" });
  await page.keyboard.press("Enter");
  const wizard = shop.wizard();
  await expect(wizard).toBeVisible();
  await expect(wizard.getByText("Step 1 of 3")).toBeVisible();
  // Focus starts inside the dialog, on the category.
  expect(await focused(page)).toMatchObject({ hosts: ["service-valuation"], tag: "select" });
  await page.keyboard.press("ArrowDown"); // Phones
  await expect(wizard.getByLabel("Category")).toHaveValue("phones");
  await page.keyboard.press("Tab");
  await page.keyboard.press("ArrowDown"); // first phone
  await expect(wizard.getByLabel("Model")).not.toHaveValue("");
  await page.keyboard.press("Tab");
  expect(await focused(page)).toMatchObject({ name: "Next" });
  await page.keyboard.press("Enter");
  await expect(wizard.getByText("Step 2 of 3")).toBeVisible();
  expect(await shop.eventNames()).toContain("service-new-user-valuation-started");
  // Condition questions: Space picks the focused answer, Tab goes to the next question.
  const groups = await wizard.getByRole("group").count();
  expect(groups).toBeGreaterThan(1);
  for (let i = 0; i < groups; i++) {
    await page.keyboard.press("Space");
    await page.keyboard.press("Tab");
  }
  expect(await focused(page)).toMatchObject({ name: "Back" });
  await page.keyboard.press("Tab");
  expect(await focused(page)).toMatchObject({ name: "Get offer" });
  await page.keyboard.press("Enter");
  await expect(wizard.getByText("Step 3 of 3")).toBeVisible();
  await expect(wizard.getByText(/We offer €[\d,.]+ for your /)).toBeVisible();
  expect(await focused(page)).toMatchObject({ name: "Accept offer" });
  await page.keyboard.press("Enter");
  await expect(wizard).toBeHidden();
  // Focus is back on the teaser button that opened the wizard (now "Value another device").
  expect(await focused(page)).toMatchObject({ hosts: ["banner"], name: "Value another device" });

  const events = await shop.events();
  expect(events.map((e) => e.name)).toEqual([
    "service-ready",
    "service-new-user-valuation-started",
    "service-valuation-updated",
    "service-modal-closed",
  ]);
  for (const event of events.slice(1)) {
    expect(event.detail).toMatchObject({ message: A_MESSAGE });
  }
  expect(events[1]?.detail).toMatchObject({ model_id: expect.any(String) });
  expect(events[2]?.detail).toMatchObject({
    tradein_id: expect.any(String),
    value: expect.any(Number),
    currency: "EUR",
    valid_until: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  });
  // The teaser shows that value in currency units (cents / 100), not the cents as euros.
  const value = (events[2]?.detail as { value?: number } | undefined)?.value ?? Number.NaN;
  await expect(shop.teasers("banner").first()).toContainText(
    new Intl.NumberFormat("en", { style: "currency", currency: "EUR" }).format(value / 100),
  );
  expect(await shop.hasActiveTradeIn()).toBe(true);
});

/**
 * Opens the checkout page and the wizard from its cart-summary teaser, and waits, as a shopper
 * does, for its first step: the wizard opens while the catalog loads, then puts focus in the
 * step's first field. Returns that teaser's button.
 */
async function openFromCartSummary(shop: Shop): Promise<Locator> {
  await shop.open();
  const opener = shop.teasers("cart-summary").first().getByRole("button");
  await opener.click();
  await expect(shop.wizard().getByLabel("Category")).toBeFocused();
  return opener;
}

test("focus stays inside the wizard, Shift+Tab goes back the way Tab came, and Escape closes it", async ({
  shop,
  page,
}) => {
  const opener = await openFromCartSummary(shop);
  const stops = async () => {
    const now = await focused(page);
    expect(now.hosts).toEqual(["service-valuation"]);
    return `${now.tag} ${now.name}`;
  };
  const forward = [await stops()];
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press("Tab");
    forward.push(await stops());
  }
  const backward = [forward[8]];
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press("Shift+Tab");
    backward.push(await stops());
  }
  // The step has fewer than 8 stops, so Tab wrapped from the last to the first at least once,
  // and Shift+Tab from the first to the last: each key one stop at a time, in opposite orders.
  expect(new Set(forward).size).toBeLessThan(8);
  expect(backward).toEqual([...forward].reverse());
  await page.keyboard.press("Escape");
  await expect(shop.wizard()).toBeHidden();
  await expect(opener).toBeFocused();
  expect(await shop.eventNames()).toEqual(["service-ready", "service-modal-closed"]);
  expect(await shop.hasActiveTradeIn()).toBe(false);
});

test("a close request that is no key press (a phone's back gesture) closes the wizard as Escape does: one closed event, focus back on its opener, and it opens again", async ({
  shop,
  page,
}) => {
  const opener = await openFromCartSummary(shop);
  // Playwright has no back gesture: the dialog's requestClose() is the same close request (HTML,
  // close requests: `cancel` first), after the shopper's click above.
  await page.evaluate(() =>
    document
      .querySelector("[data-service-modal=service-valuation]")
      ?.shadowRoot?.querySelector("dialog")
      ?.requestClose(),
  );
  await expect(shop.wizard()).toBeHidden();
  await expect(page.locator("[data-service-modal]")).toHaveCount(0);
  await expect(opener).toBeFocused();
  expect(await shop.eventNames()).toEqual(["service-ready", "service-modal-closed"]);
  await opener.click();
  await expect(shop.wizard().getByLabel("Category")).toBeVisible();
});

test("the wizard is a labelled modal dialog and marks the magic test devices", async ({
  shop,
  page,
}) => {
  await shop.open();
  await page.evaluate(() =>
    (window as unknown as { Service: { openValuation(): void } }).Service.openValuation(),
  );
  const wizard = shop.wizard();
  await expect(wizard).toHaveAttribute("aria-modal", "true");
  await wizard.getByLabel("Category").selectOption({ label: "Test devices" });
  const options = await wizard.getByLabel("Model").locator("option").allTextContents();
  expect(options.filter((o) => o.endsWith("(test)"))).toEqual([
    "Test phone: offer in another currency (test)",
    "Test phone: offer of 2,000.00 (test)",
    "Test phone: offer that expires in a minute (test)",
    "Test phone: offer of 10.00 (test)",
  ]);
  // Validation: Next without a model says why and stays on step 1.
  await wizard.getByRole("button", { name: "Next" }).click();
  const problem = wizard.getByRole("alert");
  await expect(problem).toHaveText("Please choose a category and a model.");
  // The error looks like one: its colour is not the step's ordinary text colour (compared, never
  // a fixed colour: a candidate SDK may have its own theme).
  const colours = await problem.evaluate((alert) => ({
    alert: getComputedStyle(alert).color,
    text: getComputedStyle(alert.parentElement ?? alert).color,
  }));
  expect(colours.alert, "the model picker's error stands out from its text").not.toBe(colours.text);
  // Step 1's buttons have the SDK's look, not the browser's: Next is a main action, the × (named
  // Close) a bare mark (compared with a plain button, never fixed colours).
  const { plain, of } = await buttonBackgrounds(wizard, ["Next", "Close"]);
  expect(of.Next, "Next: the SDK's look, not the browser's").not.toBe(plain);
  expect(of.Close, "×: the SDK's look, not the browser's").not.toBe(plain);
  // Opening twice is harmless (the storefront and updatePaymentSelected may both open it).
  await page.evaluate(() =>
    (window as unknown as { Service: { openValuation(): void } }).Service.openValuation(),
  );
  await expect(page.locator("[data-service-modal=service-valuation]")).toHaveCount(1);
  await wizard.getByRole("button", { name: "Close" }).click();
  await expect(wizard).toBeHidden();
});

/** Opens the wizard and answers it for the test phone whose offer expires in a minute. */
async function answerExpiringPhone(shop: Shop): Promise<Locator> {
  await shop.page.evaluate(() =>
    (window as unknown as { Service: { openValuation(): void } }).Service.openValuation(),
  );
  const wizard = shop.wizard();
  await wizard.getByLabel("Category").selectOption({ label: "Test devices" });
  await wizard
    .getByLabel("Model")
    .selectOption({ label: "Test phone: offer that expires in a minute (test)" });
  await wizard.getByRole("button", { name: "Next" }).click();
  for (const group of await wizard.getByRole("group").all()) {
    await group.getByRole("radio").last().check();
  }
  return wizard;
}

test("with the service's clock ahead of the browser's, an offer that expires within a minute stops being active on time", async ({
  shop,
  page,
}) => {
  // The teasers time the offer's end by the service's clock (init's `now`), not the browser's:
  // ten minutes apart, a timer on the wrong side of that difference ends it twenty minutes late.
  const merchant = await ownMerchant(page, {
    currency: "EUR",
    name: "clock_ahead",
    clock: { seconds: 600 },
  });
  await page.clock.install();
  await shop.open(`merchant=${merchant}`);
  const wizard = await answerExpiringPhone(shop);
  await wizard.getByRole("button", { name: "Get offer" }).click();
  await wizard.getByRole("button", { name: "Accept offer" }).click();
  await expect(wizard).toBeHidden();
  // The page's calls answered first: a call in flight would meet the SDK's own time limit.
  expect((await shop.details()).mode).toBe("tradein_valid");
  await expect(shop.teasers("banner").first()).toHaveAttribute("data-state", "offer");
  await page.clock.fastForward("00:50");
  await expect(shop.teasers("banner").first()).toHaveAttribute("data-state", "offer");
  await page.clock.fastForward("00:11");
  await expect(shop.teasers("banner").first()).toHaveAttribute("data-state", "cta");
  expect(await shop.hasActiveTradeIn()).toBe(false);
});

test("an offer is still active at its valid_until exactly, on the service's clock, and not a millisecond after", async ({
  shop,
  page,
}) => {
  // Contract, Valuation validity: expired when now is after valid_until. The browser's clock is
  // held still, so the SDK's difference to the service's clock (init's `now`) is exact.
  const browserAtInit = Date.parse("2026-06-01T12:00:00.000Z");
  await page.clock.setFixedTime(browserAtInit);
  const init = page.waitForResponse((r) => r.url().endsWith("/sdk/v1/init"));
  await shop.open();
  const serviceAtInit = Date.parse(((await (await init).json()) as { now: string }).now);
  const wizard = await answerExpiringPhone(shop);
  const accepted = page.waitForResponse((r) =>
    /\/sdk\/v1\/valuations\/[^/]+\/accept$/.test(r.url()),
  );
  await wizard.getByRole("button", { name: "Get offer" }).click();
  await wizard.getByRole("button", { name: "Accept offer" }).click();
  const validUntil = Date.parse(
    ((await (await accepted).json()) as { valid_until: string }).valid_until,
  );
  await expect(wizard).toBeHidden();
  const browserAt = (serviceTime: number) => browserAtInit + (serviceTime - serviceAtInit);
  await page.clock.setFixedTime(browserAt(validUntil));
  expect(await shop.hasActiveTradeIn()).toBe(true);
  await page.clock.setFixedTime(browserAt(validUntil + 1));
  expect(await shop.hasActiveTradeIn()).toBe(false);
});

test("Back keeps the answers; an offer that expires within a minute stops being active", async ({
  shop,
  page,
  request,
}) => {
  // The page's clock can be fast-forwarded: the teasers must notice valid_until by themselves.
  await page.clock.install();
  await shop.open();
  const wizard = await answerExpiringPhone(shop);
  await expectActionsStyled(wizard, "Get offer", "Back");
  await wizard.getByRole("button", { name: "Get offer" }).click();
  await expect(wizard.getByText("€150.00").first()).toBeVisible();
  await expectActionsStyled(wizard, "Accept offer", "Back");
  await wizard.getByRole("button", { name: "Back" }).click();
  for (const group of await wizard.getByRole("group").all()) {
    await expect(group.getByRole("radio").last()).toBeChecked();
  }
  await wizard.getByRole("button", { name: "Get offer" }).click();
  await wizard.getByRole("button", { name: "Accept offer" }).click();
  await expect(wizard).toBeHidden();
  expect((await shop.details()).mode).toBe("tradein_valid");
  await expect(shop.teasers("banner").first()).toHaveAttribute("data-state", "offer");
  await page.clock.fastForward("01:01");
  await expect(shop.teasers("banner").first()).toHaveAttribute("data-state", "cta");
  expect(await shop.hasActiveTradeIn()).toBe(false);
  // Past valid_until on the service's clock the valuation no longer counts. Only m_test's clock
  // moves: the emulator clock would move every merchant's, the frozen one of surfaces.e2e.ts too.
  const advanced = await request.post("/__emulator/merchants/m_test/clock", {
    data: { seconds: 61 },
  });
  expect(advanced.status()).toBe(200);
  expect((await shop.details()).mode).toBe("tradein_missing");
  await page.reload();
  await shop.ready();
  expect(await shop.hasActiveTradeIn()).toBe(false);
  await expect(shop.teasers("banner").first()).toHaveAttribute("data-state", "cta");
});
