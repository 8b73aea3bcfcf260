// Every SDK surface as the shopper sees it, captured for the release report's side-by-side
// comparison (scripts/sdk-release/surfaces.ts): each teaser type with the call to action and with
// the offer, the wizard's steps, the payment option in each mode and template, and the payment
// modal in each state, in EUR and in GBP, on a desktop and on a phone. Every error and empty
// state is among them (ERROR_AND_EMPTY_SURFACES there): the wizard's and the payment modal's
// failures and time limits, their validation, the refused purchase, cannot pay, the empty cart
// and the login needed. Each surface is a
// screenshot of the SDK's own element. With SDK_SURFACES_DIR set (the release run sets it per
// build) the PNGs and a manifest go there; without it the test still asserts that every surface
// is there, visible and not blank, and that the absent one (unavailable) is absent.
//
// Deterministic pictures: the page runs as a merchant of its own (a clone of m_test, `?merchant=`)
// whose clock is frozen, so the offer's "valid until" is the same on every run; UTC and en-US in
// the browser; animations off and the caret hidden.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { devices, type Locator, type Page } from "@playwright/test";
import { PNG } from "pngjs";
import { expect, faults, ownMerchant, PAST_THE_TIME_LIMIT, type Shop, test } from "./fixtures";

const SURFACES_DIR = process.env.SDK_SURFACES_DIR;
/** The frozen service clock of the surfaces' merchant: every offer is valid until this + validity. */
const FROZEN_AT = "2030-03-14T09:30:00.000Z";
const SMALL = "Test phone: offer of 10.00 (test)";

type Currency = "EUR" | "GBP";
const OTHER: Record<Currency, Currency> = { EUR: "GBP", GBP: "EUR" };

const PHONE = devices["Pixel 7"];
const DEVICES = {
  desktop: { viewport: { width: 1280, height: 800 } },
  // The phone's viewport, touch and user agent; one device pixel per CSS pixel keeps the images
  // (and the time to compare them) small: layout and wording are what the report is for.
  phone: {
    viewport: PHONE.viewport,
    userAgent: PHONE.userAgent,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 1,
  },
} as const;

/** One surface in the manifest the release report reads (scripts/sdk-release/surfaces.ts). */
type ManifestEntry =
  | { id: string; title: string; width: number; height: number }
  | { id: string; title: string; absent: string };

class Camera {
  private readonly entries: ManifestEntry[] = [];

  /** `set`: e.g. eur-desktop, the prefix of each id; `part`: this test's manifest. */
  constructor(
    private readonly set: string,
    private readonly setTitle: string,
    private readonly part: string,
  ) {}

  /** Screenshots one SDK element; fails when it is missing, hidden, empty or one flat colour. */
  async shoot(name: string, title: string, element: Locator): Promise<void> {
    await expect(element, `${title}: visible`).toBeVisible();
    await element.evaluate(alone);
    const png = await element.screenshot({ animations: "disabled", caret: "hide" });
    await element.page().evaluate(together);
    const image = PNG.sync.read(png);
    expect(image.width * image.height, `${title}: has an area`).toBeGreaterThan(0);
    expect(distinctColours(image.data), `${title}: is not blank`).toBeGreaterThan(1);
    const id = `${this.set}-${name}`;
    this.entries.push({
      id,
      title: `${title} (${this.setTitle})`,
      width: image.width,
      height: image.height,
    });
    this.save(id, png);
  }

  /** A surface the shopper must not see (the option in mode unavailable): asserted absent. */
  async absent(name: string, title: string, element: Locator, note: string): Promise<void> {
    await expect(element, `${title}: absent`).toBeHidden();
    this.entries.push({
      id: `${this.set}-${name}`,
      title: `${title} (${this.setTitle})`,
      absent: note,
    });
    this.save();
  }

  private save(id?: string, png?: Buffer): void {
    if (!SURFACES_DIR) return;
    mkdirSync(SURFACES_DIR, { recursive: true });
    if (id && png) writeFileSync(path.join(SURFACES_DIR, `${id}.png`), png);
    // Rewritten after every surface, so a test that fails half-way still leaves what it saw.
    writeFileSync(
      path.join(SURFACES_DIR, `${this.set}-${this.part}.manifest.json`),
      `${JSON.stringify({ surfaces: this.entries }, null, 2)}\n`,
    );
  }
}

/**
 * Runs in the page before a screenshot: the picture shows the element alone, whatever the other
 * surfaces look like. The other teasers are taken out of the layout (a teaser that grows in one
 * build would move every element below it by a fraction of a pixel, and the clip with it), the
 * page under a dialog is hidden (its rounded corners show the page through the backdrop), and
 * nothing keeps the focus (whether a focus ring shows after a click depends on timing).
 */
function alone(target: Element): void {
  for (const host of document.querySelectorAll<HTMLElement>("[data-service-teaser]")) {
    if (host !== target) host.style.display = "none";
  }
  if (target.localName === "dialog")
    document.querySelector("main")?.style.setProperty("visibility", "hidden");
  let focused = document.activeElement;
  while (focused?.shadowRoot?.activeElement) focused = focused.shadowRoot.activeElement;
  if (focused instanceof HTMLElement) focused.blur();
}

/** Undoes alone(). */
function together(): void {
  for (const host of document.querySelectorAll<HTMLElement>("[data-service-teaser]")) {
    host.style.removeProperty("display");
  }
  document.querySelector("main")?.style.removeProperty("visibility");
}

/** At most 3: enough to tell a blank picture from a drawn one. */
function distinctColours(rgba: Buffer): number {
  const seen = new Set<number>();
  for (let i = 0; i < rgba.length && seen.size < 3; i += 4) seen.add(rgba.readUInt32BE(i));
  return seen.size;
}

/** The page's payment option after the SDK's details were fetched again (no reload). */
async function paymentOption(page: Page, mode: string, template: string): Promise<Locator> {
  await page.evaluate(() =>
    (window as unknown as { __refreshPaymentOption(): Promise<unknown> }).__refreshPaymentOption(),
  );
  const form = page.locator("form#checkout");
  await expect(form).toHaveAttribute("data-mode", mode);
  await expect(form).toHaveAttribute("data-template", template);
  // The SDK's info and extra texts, shown as the shopper sees them once the option is chosen
  // (contract, Payment option details: the merchant shows them with the option).
  await page.evaluate(() => {
    for (const id of ["service-info", "service-extra"]) {
      const text = document.getElementById(id);
      if (text) text.hidden = false;
    }
  });
  return form.locator("fieldset");
}

async function openPayment(shop: Shop): Promise<Locator> {
  await shop.page.evaluate(() => {
    void (window as unknown as { Service: { openPayment(): Promise<void> } }).Service.openPayment();
  });
  const dialog = shop.payment();
  await expect(dialog).toBeVisible();
  return dialog;
}

async function closeDialog(dialog: Locator): Promise<void> {
  await dialog.getByRole("button", { name: "Close" }).first().click();
  await expect(dialog).toBeHidden();
}

/**
 * The checkout page as this test's own merchant (see ownMerchant), with a cart of `total` and,
 * when given, an accepted trade-in of `tradeIn` cents made through the control API.
 */
async function setUp(
  shop: Shop,
  page: Page,
  currency: Currency,
  device: string,
  part: string,
  tradeIn?: number,
) {
  const set = `${currency.toLowerCase()}-${device}`;
  const camera = new Camera(set, `${currency}, ${device}`, part);
  const merchant = await ownMerchant(page, {
    currency,
    name: `surfaces_${set}_${part}`.replace(/-/g, "_"),
    clock: { now: FROZEN_AT, freeze: true },
  });
  const cart = (total: number, inCurrency: Currency = currency) => shop.cart(total, inCurrency);
  await shop.setState({ cart: cart(79_860) });
  if (tradeIn !== undefined) await acceptedTradeIn(shop, merchant, tradeIn);
  await shop.open(`merchant=${merchant}`);
  return { camera, merchant, cart };
}

/** An accepted trade-in of `value` cents for the shop's session, made through the control API. */
async function acceptedTradeIn(shop: Shop, merchant: string, value: number): Promise<void> {
  const state = await (await shop.page.request.get(`${shop.base}/state`)).json();
  const created = await shop.page.request.post("/__emulator/tradeins", {
    data: { session_hash: state.session_hash, merchant_id: merchant, value },
  });
  expect(created.status()).toBe(201);
}

for (const currency of ["EUR", "GBP"] as const) {
  for (const [device, use] of Object.entries(DEVICES)) {
    test.describe(`${currency}, ${device}`, () => {
      test.use({ ...use, locale: "en-US", timezoneId: "UTC" });

      test(`every SDK surface as the shopper sees it: teasers and wizard (${currency}, ${device})`, async ({
        shop,
        page,
      }) => {
        shop.expectedConsoleErrors.push(/status of 503|Failed to load resource/);
        const { camera } = await setUp(shop, page, currency, device, "teasers");
        // The first catalog call fails: the wizard's error.
        await faults(page, /\/sdk\/v1\/catalog$/, ["error"]);
        // The confirmation page's teaser, added the way a single-page storefront adds one late.
        await page.evaluate(() => {
          const slot = document.createElement("section");
          slot.innerHTML = '<div class="service-teaser" data-type="thank-you"></div>';
          document.querySelector("main")?.append(slot);
        });
        const types = ["banner", "product-widget", "cart-summary", "thank-you"] as const;
        for (const type of types) {
          const teaser = shop.teasers(type).first();
          await expect(teaser).toHaveAttribute("data-state", "cta");
          await camera.shoot(`teaser-${type}-cta`, `Teaser ${type}, call to action`, teaser);
        }

        // The wizard, from the banner's button: the catalog failing, then step by step, with
        // each step's validation.
        const banner = shop.teasers("banner").first();
        await banner.getByRole("button", { name: "Calculate discount" }).click();
        const wizard = shop.wizard();
        await expect(wizard.getByRole("alert")).toHaveText(
          "Something went wrong. Please try again.",
        );
        await camera.shoot("wizard-failed", "Wizard, the catalog failed", wizard);
        await closeDialog(wizard);
        await banner.getByRole("button", { name: "Calculate discount" }).click();
        await wizard.getByLabel("Category").selectOption({ label: "Test devices" });
        await wizard.getByLabel("Model").selectOption({ label: SMALL });
        await camera.shoot("wizard-1-device", "Wizard step 1, device chosen", wizard);
        await wizard.getByRole("button", { name: "Next" }).click();
        await wizard.getByRole("button", { name: "Get offer" }).click();
        await expect(wizard.getByRole("alert")).toHaveText("Please answer every question.");
        await camera.shoot("wizard-2-unanswered", "Wizard step 2, a question unanswered", wizard);
        for (const group of await wizard.getByRole("group").all()) {
          await group.getByRole("radio").first().check();
        }
        // Back to step 1 (the answers are kept): Next with no model.
        await wizard.getByRole("button", { name: "Back" }).click();
        await wizard.getByLabel("Model").selectOption("");
        await wizard.getByRole("button", { name: "Next" }).click();
        await expect(wizard.getByRole("alert")).toHaveText("Please choose a category and a model.");
        await camera.shoot("wizard-1-no-model", "Wizard step 1, no model chosen", wizard);
        await wizard.getByLabel("Model").selectOption({ label: SMALL });
        await wizard.getByRole("button", { name: "Next" }).click();
        await camera.shoot("wizard-2-condition", "Wizard step 2, condition answered", wizard);
        await wizard.getByRole("button", { name: "Get offer" }).click();
        await expect(wizard.locator("[data-offer-value]")).toHaveAttribute(
          "data-offer-value",
          "1000",
        );
        await camera.shoot("wizard-3-offer", "Wizard step 3, the offer", wizard);
        await wizard.getByRole("button", { name: "Accept offer" }).click();
        await expect(wizard).toBeHidden();

        // Accepted: every teaser shows the offer.
        for (const type of types) {
          const teaser = shop.teasers(type).first();
          await expect(teaser).toHaveAttribute("data-state", "offer");
          await camera.shoot(`teaser-${type}-offer`, `Teaser ${type}, the accepted offer`, teaser);
        }
      });

      test(`every SDK surface as the shopper sees it: payment option (${currency}, ${device})`, async ({
        shop,
        page,
      }) => {
        const { camera, merchant, cart } = await setUp(shop, page, currency, device, "option");
        await camera.shoot(
          "option-tradein_missing",
          "Payment option, tradein_missing",
          await paymentOption(page, "tradein_missing", "tradein_missing"),
        );
        // The service's details follow the session's trade-in: no reload needed.
        await acceptedTradeIn(shop, merchant, 1000);
        await camera.shoot(
          "option-tradein_valid",
          "Payment option, tradein_valid",
          await paymentOption(page, "tradein_valid", "tradein_valid"),
        );

        // tradein_invalid, each template, by changing the cart in place.
        await shop.setState({ cart: cart(10_000) });
        await camera.shoot(
          "option-tradein_invalid-other_ok",
          "Payment option, tradein_invalid / other_ok",
          await paymentOption(page, "tradein_invalid", "other_ok"),
        );
        await shop.setState({ cart: cart(4_000) });
        await camera.shoot(
          "option-tradein_invalid-cart_below_limit",
          "Payment option, tradein_invalid / cart_below_limit",
          await paymentOption(page, "tradein_invalid", "cart_below_limit"),
        );
        await shop.setState({ cart: cart(79_860, OTHER[currency]) });
        await camera.shoot(
          "option-tradein_invalid-currency",
          "Payment option, tradein_invalid / currency",
          await paymentOption(page, "tradein_invalid", "currency"),
        );

        // unavailable: the merchant does not offer Service Pay, the page hides the option.
        await shop.setState({ cart: cart(79_860) });
        const patched = await page.request.patch(`/__emulator/merchants/${merchant}`, {
          data: { products: "valuations" },
        });
        expect(patched.status()).toBe(200);
        await paymentOption(page, "unavailable", "unavailable");
        await camera.absent(
          "option-unavailable",
          "Payment option, unavailable",
          page.locator("#service-option"),
          "not shown: the page hides the option in mode unavailable",
        );
      });

      test(`every SDK surface as the shopper sees it: payment modal and login needed (${currency}, ${device})`, async ({
        shop,
        page,
      }) => {
        shop.expectedConsoleErrors.push(/status of (503|400)|Failed to load resource/);
        // The page's clock, so the SDK's 30 s time limit can pass at once.
        await page.clock.install();
        // An accepted trade-in of 10.00 from the start (control API): this test is about the modal.
        const { camera, cart } = await setUp(shop, page, currency, device, "modal", 1000);
        await paymentOption(page, "tradein_valid", "tradein_valid");

        // The wizard's catalog unanswered past the SDK's time limit.
        const catalog = await faults(page, /\/sdk\/v1\/catalog$/, ["hold"]);
        await page.evaluate(() => {
          void (
            window as unknown as { Service: { openValuation(): Promise<void> } }
          ).Service.openValuation();
        });
        await expect.poll(catalog.reached).toBe(1);
        await page.clock.fastForward(PAST_THE_TIME_LIMIT);
        const timedOut = shop.wizard();
        await expect(timedOut.getByRole("alert")).toHaveText(
          "The service did not answer in time. Please try again.",
        );
        await camera.shoot("wizard-timed-out", "Wizard, the service did not answer", timedOut);
        await catalog.release();
        await closeDialog(timedOut);

        // The payment modal as the page opens it: the option chosen, then Place order.
        await page.getByLabel("Pay with Service").check();
        await page.getByRole("button", { name: "Place order" }).click();
        const payment = shop.payment();
        await expect(payment.getByRole("button", { name: "Pay now" })).toBeVisible();
        await camera.shoot("payment-summary", "Payment modal, summary with the amounts", payment);
        // The payment cannot reach the service once: the modal says so and stays open. (A
        // fault of the control API answers before the emulator's CORS headers, which the browser
        // reports as a CORS error; a lost request is what the shopper's browser meets anyway.)
        shop.expectedConsoleErrors.push(/ERR_FAILED.*\/sdk\/v1\/payments$/);
        await page.route("**/sdk/v1/payments", (route) => route.abort("failed"), { times: 1 });
        await payment.getByRole("button", { name: "Pay now" }).click();
        await expect(payment.getByRole("status")).toHaveText(
          "Something went wrong. Please try again.",
        );
        await camera.shoot("payment-failed", "Payment modal, the payment failed", payment);
        // Pay now again, unanswered past the SDK's time limit.
        const payments = await faults(page, /\/sdk\/v1\/payments$/, ["hold"]);
        await payment.getByRole("button", { name: "Pay now" }).click();
        await expect.poll(payments.reached).toBe(1);
        await page.clock.fastForward(PAST_THE_TIME_LIMIT);
        await expect(payment.getByRole("status")).toHaveText(
          "The service did not answer in time. Please try again.",
        );
        await camera.shoot(
          "payment-timed-out",
          "Payment modal, the service did not answer",
          payment,
        );
        await payments.release();
        await closeDialog(payment);
        await page.getByLabel("Card (merchant)").check();

        // The payment option's details failing as the modal opens.
        await faults(page, /\/sdk\/v1\/payment-option$/, ["error"]);
        const openFailed = await openPayment(shop);
        await expect(openFailed.getByRole("alert")).toHaveText(
          "Something went wrong. Please try again.",
        );
        await camera.shoot("payment-open-failed", "Payment modal, opening failed", openFailed);
        await closeDialog(openFailed);

        // purchase_data the service refuses (totals that do not add up).
        await shop.setState({ cart: { ...cart(79_860), total: 79_960 } });
        const rejected = await openPayment(shop);
        await expect(rejected.getByRole("alert")).toHaveText(
          "Service Pay cannot be used for this order.",
        );
        await expect(rejected).toContainText("cannot be paid with Service Pay");
        await camera.shoot("payment-rejected", "Payment modal, purchase data refused", rejected);
        await closeDialog(rejected);

        await shop.setState({ cart: cart(10_000) });
        await paymentOption(page, "tradein_invalid", "other_ok");
        const cannotPay = await openPayment(shop);
        await expect(cannotPay.getByRole("alert")).toHaveText(
          "Service Pay cannot be used for this order.",
        );
        await camera.shoot("payment-cannot-pay", "Payment modal, cannot pay (other_ok)", cannotPay);
        await closeDialog(cannotPay);

        await shop.setState({ cart: null });
        const empty = await openPayment(shop);
        await expect(empty.getByRole("alert")).toHaveText("Your cart is empty.");
        await camera.shoot("payment-empty-cart", "Payment modal, empty cart", empty);
        await closeDialog(empty);

        // A shopper who is not logged in (the SDK reads shopper_data once, at start-up).
        await shop.setState({ customer: null });
        await page.reload();
        await shop.ready();
        await shop
          .teasers("banner")
          .first()
          .getByRole("button", { name: "Calculate discount" })
          .click();
        const wizard = shop.wizard();
        await expect(wizard.getByText("Log in to calculate your discount")).toBeVisible();
        await camera.shoot("wizard-login", "Wizard, login needed", wizard);
        await closeDialog(wizard);
        const login = await openPayment(shop);
        await expect(login.getByRole("alert")).toHaveText("Log in to calculate your discount");
        await camera.shoot("payment-login", "Payment modal, login needed", login);
        await closeDialog(login);
      });
    });
  }
}
