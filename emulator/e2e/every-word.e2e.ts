// Every text the SDK shows, read where it shows, in every language the SDK ships (the message
// table of emulator/sdk/format.ts; where each word shows: ./words.ts). Three journeys per
// language bring each surface into each of its states — the teasers and the wizard's steps with
// their validation; the payment modal's summary, its payment waiting, failing, timing out and
// done, and its cannot-pay, refused and empty-cart messages; the logged-out prompts and the
// wizard's failures and an empty catalog — and each ends by checking that it read every word
// listed for it.
//
// The expected words come from the SDK's own table, filled the way the SDK fills them; money and
// dates are formatted by the page's Intl (the browser's, as the SDK's are). A candidate build
// with other wording fails here on purpose: a change of words is for a person to look at.
import type { Locator, Page } from "@playwright/test";
import { type Locale, type MessageKey, t } from "../sdk/format";
import { expect, faults, PAST_THE_TIME_LIMIT, Shop, test } from "./fixtures";
import { type Journey, LANGUAGES, WHERE_EACH_WORD_SHOWS } from "./words";

const SMALL = "Test phone: offer of 10.00";
const TEASER_TYPES = ["banner", "product-widget", "cart-summary", "thank-you"] as const;
type Offer = { device: string; value: number; currency: string; valid_until: string };

class Words {
  private readonly read = new Set<MessageKey>();

  constructor(
    readonly lang: Locale,
    private readonly page: Page,
  ) {}

  text(key: MessageKey, vars: Record<string, string> = {}): string {
    return t(this.lang, key, vars);
  }

  /** `locator` shows exactly the word (within `around`, when the SDK writes it into more). */
  async shows(
    locator: Locator,
    key: MessageKey,
    vars?: Record<string, string>,
    around: (word: string) => string = (word) => word,
  ): Promise<void> {
    await expect(locator, `${this.lang} ${key}`).toHaveText(around(this.text(key, vars)));
    this.read.add(key);
  }

  /** Texts the page recorded as they showed, in order, are exactly these words. */
  saw(texts: string[], keys: MessageKey[]): void {
    expect(texts, `${this.lang} ${keys.join(", ")}`).toEqual(keys.map((key) => this.text(key)));
    for (const key of keys) this.read.add(key);
  }

  /** Some element of `scope` whose whole text is the word (within `around`) is visible. */
  async visibleIn(
    scope: Locator,
    key: MessageKey,
    vars?: Record<string, string>,
    around: (word: string) => string = (word) => word,
  ): Promise<void> {
    const text = around(this.text(key, vars));
    await expect(
      scope.getByText(text, { exact: true }).first(),
      `${this.lang} ${key}`,
    ).toBeVisible();
    this.read.add(key);
  }

  /** The word names a role in `scope` (a dialog, a heading, a button, a table, a group…). */
  async names(
    scope: Locator | Page,
    role: Parameters<Page["getByRole"]>[0],
    key: MessageKey,
  ): Promise<Locator> {
    const found = scope.getByRole(role, { name: this.text(key), exact: true }).last();
    await expect(found, `${this.lang} ${key} (${role})`).toBeVisible();
    this.read.add(key);
    return found;
  }

  /** The cents as the SDK shows them in this language (the page's Intl). */
  money(cents: number, currency: string): Promise<string> {
    return this.page.evaluate(
      ([c, cur, lang]) =>
        new Intl.NumberFormat(lang, { style: "currency", currency: cur }).format(c / 100),
      [cents, currency, this.lang] as const,
    );
  }

  date(iso: string): Promise<string> {
    return this.page.evaluate(
      ([d, lang]) =>
        new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(
          new Date(d),
        ),
      [iso, this.lang] as const,
    );
  }

  /** Every word listed for this journey was read. */
  expectAllRead(journey: Journey): void {
    const due = Object.entries(WHERE_EACH_WORD_SHOWS)
      .filter(([, [j]]) => j === journey)
      .map(([key]) => key as MessageKey);
    expect(
      due.filter((key) => !this.read.has(key)),
      `${this.lang}: words of "${journey}" not read`,
    ).toEqual([]);
  }
}

function openPayment(page: Page): Promise<void> {
  return page.evaluate(() => {
    void (window as unknown as { Service: { openPayment(): Promise<void> } }).Service.openPayment();
  });
}

function openValuation(page: Page): Promise<void> {
  return page.evaluate(() => {
    void (
      window as unknown as { Service: { openValuation(): Promise<void> } }
    ).Service.openValuation();
  });
}

/** Closes a message state by its own Close button (the last button named Close: the × is first). */
async function closeBy(words: Words, dialog: Locator): Promise<void> {
  await words.shows(
    dialog.getByRole("button", { name: words.text("close"), exact: true }).last(),
    "close",
  );
  await dialog
    .getByRole("button", { name: words.text("close"), exact: true })
    .last()
    .click();
  await expect(dialog).toBeHidden();
}

/** An accepted trade-in of `value` cents for the shop's session (control API); its device. */
async function acceptedTradeIn(shop: Shop, value: number): Promise<string> {
  // m_test exists once the test merchant is first used; an empty patch makes sure of it.
  expect(
    (await shop.page.request.put("/__emulator/test-merchant/merchant", { data: {} })).status(),
  ).toBe(200);
  const state = await (await shop.page.request.get(`${shop.base}/state`)).json();
  const created = await shop.page.request.post("/__emulator/tradeins", {
    data: { session_hash: state.session_hash, merchant_id: "m_test", value },
  });
  expect(created.status()).toBe(201);
  return (await created.json()).tradein_item.device.name;
}

for (const lang of LANGUAGES) {
  test.describe(`every SDK word (${lang})`, () => {
    test.use({ timezoneId: "UTC" });

    test(`the teasers and the wizard's steps, with its validation and the offer (${lang})`, async ({
      shop,
      page,
    }) => {
      const words = new Words(lang, page);
      await shop.open(`lang=${lang}`);
      // The confirmation page's teaser, added the way a single-page storefront adds one late.
      await page.evaluate(() => {
        const slot = document.createElement("section");
        slot.innerHTML = '<div class="service-teaser" data-type="thank-you"></div>';
        document.querySelector("main")?.append(slot);
      });
      for (const type of TEASER_TYPES) {
        await expect(shop.teasers(type).first()).toBeVisible();
        for (const teaser of await shop.teasers(type).all()) {
          await expect(teaser).toHaveAttribute("data-state", "cta");
          await words.shows(teaser.locator("p"), type);
          await words.shows(teaser.getByRole("button"), "calculate");
        }
      }

      // Step 1: the device, Next without a model says why.
      await shop.teasers("banner").first().getByRole("button").click();
      const wizard = await words.names(page, "dialog", "wizardTitle");
      await words.names(wizard, "heading", "wizardTitle");
      await expect(await words.names(wizard, "button", "close")).toHaveText("×");
      await words.visibleIn(wizard, "step", { n: "1" });
      await words.names(wizard, "heading", "stepDevice");
      const category = await words.names(wizard, "combobox", "category");
      const model = await words.names(wizard, "combobox", "model");
      await words.shows(category.locator("option").first(), "chooseOne");
      await (await words.names(wizard, "button", "next")).click();
      await words.shows(wizard.getByRole("alert"), "pickModel");
      await category.selectOption({ label: "Test devices" });
      await words.shows(model.locator("option").first(), "chooseOne");
      const testModel = model.locator("option", { hasText: SMALL });
      await words.shows(testModel, "testMarker", {}, (marker) => `${SMALL} (${marker})`);
      await model.selectOption({ label: `${SMALL} (${words.text("testMarker")})` });
      await wizard.getByRole("button", { name: words.text("next"), exact: true }).click();

      // Step 2: the condition, Get offer with a question unanswered says why.
      await words.visibleIn(wizard, "step", { n: "2" });
      await words.names(wizard, "heading", "stepCondition");
      await words.names(wizard, "button", "back");
      const getOffer = await words.names(wizard, "button", "getOffer");
      await getOffer.click();
      await words.shows(wizard.getByRole("alert"), "required");
      for (const group of await wizard.getByRole("group").all()) {
        await group.getByRole("radio").first().check();
      }
      const valued = page.waitForResponse(
        (r) => r.url().endsWith("/sdk/v1/valuations") && r.request().method() === "POST",
      );
      await getOffer.click();
      const offer = (await (await valued).json()) as Offer;

      // Step 3: the offer.
      const value = await words.money(offer.value, offer.currency);
      await words.visibleIn(wizard, "step", { n: "3" });
      await words.names(wizard, "heading", "stepOffer");
      await words.visibleIn(wizard, "offerIntro", { value, device: offer.device });
      await words.visibleIn(wizard, "validUntil", { date: await words.date(offer.valid_until) });
      await words.visibleIn(wizard, "estimate");
      await words.names(wizard, "button", "back");
      const accepted = page.waitForResponse((r) => r.url().endsWith("/accept"));
      await (await words.names(wizard, "button", "accept")).click();
      const tradein = (await (await accepted).json()) as Offer;
      await expect(wizard).toBeHidden();

      // Every teaser with the accepted offer: "<offer>: <device>: <value> off", valid until.
      const until = await words.date(tradein.valid_until);
      const line = {
        device: tradein.device,
        value: await words.money(tradein.value, tradein.currency),
      };
      for (const teaser of await shop.teasers().all()) {
        await expect(teaser).toHaveAttribute("data-state", "offer");
        await words.names(teaser, "group", "offer");
        await words.visibleIn(
          teaser,
          "offerLine",
          line,
          (word) => `${words.text("offer")}: ${word}`,
        );
        await words.visibleIn(teaser, "validUntil", { date: until });
        await words.shows(teaser.getByRole("button"), "again");
      }
      words.expectAllRead("wizard");
    });

    test(`the payment modal: summary, paying, failed, timed out, refused, cannot pay, empty cart, paid (${lang})`, async ({
      shop,
      page,
    }) => {
      shop.expectedConsoleErrors.push(/status of (503|400)|Failed to load resource/);
      const words = new Words(lang, page);
      const cart = shop.cart(79_860);
      await shop.setState({ cart });
      const device = await acceptedTradeIn(shop, 1_000);
      // The page's clock, so the SDK's 30 s time limit can pass at once.
      await page.clock.install();
      await shop.open(`lang=${lang}`);

      // The summary.
      await openPayment(page);
      const modal = await words.names(page, "dialog", "payTitle");
      await words.names(modal, "heading", "payTitle");
      await expect(await words.names(modal, "button", "close")).toHaveText("×");
      const table = await words.names(modal, "table", "items");
      await words.names(table, "columnheader", "items");
      await words.names(table, "columnheader", "quantity");
      await words.visibleIn(modal, "subtotal");
      await words.visibleIn(modal, "discount", {}, (word) => `${word} (${device})`);
      await words.visibleIn(modal, "left");
      await words.names(modal, "group", "howToPay");
      await words.names(modal, "radio", "card");
      await words.names(modal, "radio", "bank");
      const pay = await words.names(modal, "button", "payNow");
      const status = modal.getByRole("status");

      // Paying, then the service's error; paying, then no answer past the time limit.
      const payments = await faults(page, /\/sdk\/v1\/payments$/, ["error", "hold"]);
      await pay.click();
      await words.shows(status, "failed");
      await pay.click();
      await expect.poll(payments.reached).toBe(2);
      await words.shows(status, "paying");
      await page.clock.fastForward(PAST_THE_TIME_LIMIT);
      await words.shows(status, "timedOut");
      await payments.release();
      await modal.getByRole("button", { name: words.text("close"), exact: true }).click();
      await expect(modal).toBeHidden();

      // purchase_data the service refuses (totals that do not add up): cannot pay, and why.
      await shop.setState({ cart: { ...cart, total: cart.total + 100 } });
      await openPayment(page);
      await words.shows(modal.getByRole("alert"), "cannotPay");
      await words.visibleIn(modal, "purchaseRejected");
      await closeBy(words, modal);

      // A cart the trade-in does not fit (tradein_invalid): cannot pay, with the service's info.
      await shop.setState({ cart: shop.cart(10_000) });
      const details = await shop.details();
      expect(details.mode).toBe("tradein_invalid");
      await openPayment(page);
      await words.shows(modal.getByRole("alert"), "cannotPay");
      await closeBy(words, modal);

      // The empty cart: its words and nothing else (the message's paragraph stays empty).
      await shop.setState({ cart: null });
      await openPayment(page);
      await words.shows(modal.getByRole("alert"), "emptyCart");
      await expect(modal).toHaveText(
        `${words.text("payTitle")}×${words.text("emptyCart")}${words.text("close")}`,
      );
      await closeBy(words, modal);

      // Paid: the status the shopper reads until the confirmation page replaces the modal, as
      // the page recorded it (each text of the status, kept across the navigation).
      await shop.setState({ cart });
      await openPayment(page);
      const payAgain = modal.getByRole("button", { name: words.text("payNow"), exact: true });
      await expect(payAgain).toBeVisible();
      await page.evaluate(() => {
        const host = document.querySelector("[data-service-modal=service-payment]");
        const status = host?.shadowRoot?.querySelector('[role="status"]');
        if (!status) throw new Error("the payment modal has no status");
        new MutationObserver(() => {
          const seen = JSON.parse(sessionStorage.getItem("statusSeen") ?? "[]");
          sessionStorage.setItem("statusSeen", JSON.stringify([...seen, status.textContent]));
        }).observe(status, { childList: true, characterData: true, subtree: true });
      });
      await Promise.all([page.waitForURL(/\/confirmation$/), payAgain.click()]);
      words.saw(
        await page.evaluate(() => JSON.parse(sessionStorage.getItem("statusSeen") ?? "[]")),
        ["paying", "paid"],
      );
      words.expectAllRead("payment");
    });

    test(`logged out, and the wizard failing and timing out (${lang})`, async ({ shop, page }) => {
      shop.expectedConsoleErrors.push(/status of 503|Failed to load resource/);
      const words = new Words(lang, page);
      await page.clock.install();

      // A shopper not logged in: the wizard and the payment modal ask to log in.
      const guest = new Shop(page, `${shop.key}-guest`);
      await guest.setState({ customer: null });
      await guest.open(`lang=${lang}`);
      await guest.teasers("banner").first().getByRole("button").click();
      const wizard = await words.names(page, "dialog", "wizardTitle");
      await words.names(wizard, "heading", "loginTitle");
      await words.visibleIn(wizard, "loginText");
      await closeBy(words, wizard);
      await openPayment(page);
      const modal = await words.names(page, "dialog", "payTitle");
      await words.shows(modal.getByRole("alert"), "loginTitle");
      await words.visibleIn(modal, "loginText");
      await closeBy(words, modal);

      // Logged in: the catalog answered 503, then Get offer unanswered past the time limit.
      const catalog = await faults(page, /\/sdk\/v1\/catalog$/, ["error"]);
      await shop.open(`lang=${lang}`);
      await openValuation(page);
      await words.shows(wizard.getByRole("alert"), "failed");
      expect(catalog.reached()).toBe(1);
      await closeBy(words, wizard);
      const valuations = await faults(page, /\/sdk\/v1\/valuations$/, ["hold"]);
      await openValuation(page);
      await wizard.getByRole("combobox").first().selectOption({ label: "Test devices" });
      await wizard
        .getByRole("combobox")
        .last()
        .selectOption({ label: `${SMALL} (${words.text("testMarker")})` });
      await wizard.getByRole("button", { name: words.text("next"), exact: true }).click();
      for (const group of await wizard.getByRole("group").all()) {
        await group.getByRole("radio").first().check();
      }
      await wizard.getByRole("button", { name: words.text("getOffer"), exact: true }).click();
      await expect.poll(valuations.reached).toBe(1);
      await page.clock.fastForward(PAST_THE_TIME_LIMIT);
      await words.shows(wizard.getByRole("alert"), "timedOut");
      await valuations.release();
      await closeBy(words, wizard);

      // A catalog answered without categories: step 1 offers nothing but its placeholder.
      await faults(page, /\/sdk\/v1\/catalog$/, ["empty"]);
      await shop.open(`lang=${lang}`);
      await openValuation(page);
      const categories = (await words.names(wizard, "combobox", "category")).locator("option");
      await expect(categories).toHaveCount(1);
      await words.shows(categories, "chooseOne");
      words.expectAllRead("failures");
    });
  });
}
