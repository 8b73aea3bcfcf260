// The ONE driver of the service SDK's own screens (teasers, valuation wizard, payment modal) and
// its JavaScript object, shipped in the emulator's tarball (`service-emulator/go-live`): the
// go-live journeys (journeys.ts) drive the SDK with it against any shop, and the storefront's
// suite re-exports it (e2e/support/service-sdk-driver.ts). It relies only on the SDK's stable
// DOM (emulator/README.md, "Stable DOM": roles, names, [data-amount] and [data-service-teaser]
// hooks) and on the contract's events and methods, so the SDK team can run a suite against
// another SDK build by changing SERVICE_ASSETS_URL. Everything else in a suite talks to the shop.
import { expect, type Locator, type Page } from "@playwright/test";

/** The SDK's teaser kinds, as its `[data-service-teaser]` hook names them (stable DOM). */
export type TeaserType = "banner" | "product-widget" | "cart-summary" | "thank-you";

/** One SDK browser event as the driver recorded it (contract: Events › SDK browser events). */
export interface ServiceEvent {
  /** The event's name, e.g. `service-ready`, `service-payment-completed`. */
  name: string;
  /** The event's `detail` (a CustomEvent's), null when it had none. */
  detail: unknown;
}

/** What the SDK's `paymentOptionDetailsFor('ep1')` answers (contract: Resources › Payment
 *  option details). */
export interface PaymentOptionDetails {
  /** One of unavailable, tradein_valid, tradein_missing, tradein_invalid (contract: States ›
   *  Payment option mode). */
  mode: string;
  /** The template for custom rendering; with tradein_invalid one of currency,
   *  cart_below_limit, other_ok. */
  template_name: string;
  /** Plain localized text. */
  label: string;
  /** Short localized text, may hold simple HTML tags (br, strong). */
  info: string;
  /** Optional localized text, the same HTML rules; absent or null when there is none. */
  extra?: string | null;
  /** The raw values: valuation, tradein, minimum (cents), tradein_currency, cart_currency. */
  data?: Record<string, unknown> | null;
}

/** The magic test devices of the bundled emulator (its README, "Magic test devices"). */
export const TEST_DEVICES = {
  /** Its offer is in a currency other than the cart's (payment option: tradein_invalid,
   *  template currency). */
  otherCurrency: "Test phone: offer in another currency (test)",
  /** An offer of 2,000.00, above most carts' totals. */
  largeOffer: "Test phone: offer of 2,000.00 (test)",
  /** An offer whose `valid_until` is a minute away (expiry while paying). */
  expiresSoon: "Test phone: offer that expires in a minute (test)",
  /** An offer of 10.00. */
  smallOffer: "Test phone: offer of 10.00 (test)",
} as const;
/** The wizard's category that holds TEST_DEVICES. */
export const TEST_CATEGORY = "Test devices";
/** A device of the emulator's catalog worth at most 420.00 EUR: valid on any cart from 420.00.
 *  Another SDK build or service catalog changes only this. */
export const EVERYDAY_DEVICE = {
  /** The wizard's category, by its visible name. */
  category: "Phones",
  /** The wizard's model, by its visible name. */
  model: "Aurora 15",
} as const;

/** Contract, Events › SDK browser events: every name the SDK dispatches on `window`. */
const EVENT_NAMES = [
  "service-ready",
  "service-valuation-updated",
  "service-payment-completed",
  "service-modal-closed",
  "servicepay-payment-method-selected",
  "servicepay-payment-method-unselected",
  "service-ready-to-place-order",
  "service-new-user-valuation-started",
  "service-purchase-updated",
];

/** The wizard's heading for a shopper who is not signed in (the SDK's stable DOM). */
const LOGIN_HEADING = "Log in to calculate your discount";

type EventWindow = Window & { __serviceEvents?: ServiceEvent[] };

/** Drives the service SDK's own screens and JavaScript object in one Playwright tab, through
 *  the SDK's stable DOM and the contract's events and methods; made by `attach`. */
export class ServiceSdkDriver {
  private constructor(
    /** The Playwright tab the driver records and drives. */
    readonly page: Page,
  ) {}

  /**
   * Records the SDK's events of every page this tab opens in `window.__serviceEvents` (installed
   * before any page script runs, so `service-ready` cannot be missed).
   */
  static async attach(page: Page): Promise<ServiceSdkDriver> {
    await page.addInitScript((names: string[]) => {
      const w = window as EventWindow;
      w.__serviceEvents = [];
      for (const name of names) {
        window.addEventListener(name, (event) => {
          const entry = { name, detail: (event as CustomEvent).detail ?? null };
          w.__serviceEvents?.push(entry);
          // Kept across the SDK's own navigation (payment → confirmUrl).
          const log = JSON.parse(sessionStorage.getItem("serviceEventLog") ?? "[]");
          sessionStorage.setItem("serviceEventLog", JSON.stringify([...log, entry]));
        });
      }
    }, EVENT_NAMES);
    return new ServiceSdkDriver(page);
  }

  /** Events of the current page, in order. */
  events(): Promise<ServiceEvent[]> {
    return this.page.evaluate(() => (window as EventWindow).__serviceEvents ?? []);
  }

  /** Waits until the SDK dispatched `name` on the current page at least `count` times; fails
   *  at once on a page that records no events (loaded before attach). */
  async waitForEvent(name: string, count = 1): Promise<ServiceEvent> {
    const handle = await this.page.waitForFunction(
      ([n, c]) => {
        const recorded = (window as EventWindow).__serviceEvents;
        // A page loaded before attach has no recorder: its events can never be seen.
        if (!recorded) return { unrecorded: true };
        const seen = recorded.filter((e) => e.name === n);
        return seen.length >= (c as number) ? seen[(c as number) - 1] : undefined;
      },
      [name, count] as const,
    );
    const found = (await handle.jsonValue()) as ServiceEvent | { unrecorded: true };
    if ("unrecorded" in found)
      throw new Error(
        `Waiting for the SDK's ${name} on ${this.page.url()}, a page that records no SDK events: ` +
          "it loaded before ServiceSdkDriver.attach(page). Attach before the first page.goto " +
          "(attach records the events of the pages loaded after it).",
      );
    return found;
  }

  /** Waits for `service-ready` on the current page (the SDK loaded and initialised). */
  async ready(): Promise<void> {
    await this.waitForEvent("service-ready");
  }

  /** Events of every page of this tab so far (sessionStorage survives navigations). */
  eventLog(): Promise<ServiceEvent[]> {
    return this.page.evaluate(() => JSON.parse(sessionStorage.getItem("serviceEventLog") ?? "[]"));
  }

  /** How many times the SDK dispatched `name` on the current page. */
  async eventCount(name: string): Promise<number> {
    return (await this.events()).filter((e) => e.name === name).length;
  }

  // ---- teasers ----

  /** The teasers the SDK injected, of one type or all. */
  teasers(type?: TeaserType): Locator {
    return this.page.locator(type ? `[data-service-teaser="${type}"]` : "[data-service-teaser]");
  }

  /** Opens the wizard from a teaser's call to action ("Calculate discount" / "Value another device"). */
  async openWizardFromTeaser(type: TeaserType): Promise<void> {
    await this.teasers(type)
      .first()
      .getByRole("button", { name: /Calculate discount|Value another device/ })
      .click();
    await expect(this.wizard()).toBeVisible();
  }

  /** The teaser shows the accepted offer (data-state="offer"). */
  async expectOfferShown(type: TeaserType): Promise<void> {
    await expect(this.teasers(type).first()).toHaveAttribute("data-state", "offer");
  }

  // ---- wizard ----

  /** The valuation wizard's dialog ("Trade-in valuation"). */
  wizard(): Locator {
    return this.page.getByRole("dialog", { name: "Trade-in valuation" });
  }

  /** The open wizard asks an anonymous shopper to log in (no device questions). */
  async expectWizardAsksToLogIn(): Promise<void> {
    await expect(this.wizard().getByRole("heading", { name: LOGIN_HEADING })).toBeVisible();
    await expect(this.wizard().getByLabel("Category")).toHaveCount(0);
  }

  /** The open wizard values a device for a logged-in shopper (its first step: the category). */
  async expectWizardAsksForDevice(): Promise<void> {
    await expect(this.wizard().getByLabel("Category")).toBeVisible();
    await expect(this.wizard().getByRole("heading", { name: LOGIN_HEADING })).toHaveCount(0);
  }

  /**
   * Values a device in the open wizard: category and model by their visible names, the first
   * answer of every condition question (or the answers given by question → answer name), then
   * "Get offer". Returns the offer in cents (the wizard's [data-offer-value]).
   */
  async valueDevice(
    category: string,
    model: string,
    answers: Record<string, string> = {},
  ): Promise<number> {
    const wizard = this.wizard();
    await expect(wizard).toBeVisible();
    // Contract, Merchant endpoints (shopper_data 404): the service values a device only for a
    // signed-in customer; a guest gets the login prompt, never the Category question. Said at
    // once instead of waiting out the test's timeout on a question that will not come.
    const login = wizard.getByRole("heading", { name: LOGIN_HEADING });
    await expect(wizard.getByLabel("Category").or(login)).toBeVisible();
    if (await login.isVisible())
      throw new Error(
        "The service's valuation wizard asks this shopper to log in: the service values a device " +
          "only for a signed-in customer (the shop's shopper_data answered 404 for this " +
          "session). Sign a customer in first: give the go-live journeys `customer` and " +
          "`shop.signIn` (required for scenarios 1 and 2), and check that shopper_data reads " +
          "the signed-in session.",
      );
    await wizard.getByLabel("Category").selectOption({ label: category });
    await wizard.getByLabel("Model").selectOption({ label: model });
    await wizard.getByRole("button", { name: "Next" }).click();
    await expect(wizard.getByRole("button", { name: "Get offer" })).toBeVisible();
    for (const group of await wizard.getByRole("group").all()) {
      const name =
        (await group.getAttribute("aria-label")) ??
        (await group.locator("legend").textContent()) ??
        "";
      const chosen = Object.entries(answers).find(([question]) => name.includes(question));
      if (chosen) await group.getByRole("radio", { name: chosen[1] }).check();
      else await group.getByRole("radio").first().check();
    }
    await wizard.getByRole("button", { name: "Get offer" }).click();
    const offer = wizard.locator("[data-offer-value]");
    await expect(offer).toBeVisible();
    return Number(await offer.getAttribute("data-offer-value"));
  }

  /** Accepts the offer shown and waits for the SDK's `service-valuation-updated`. */
  async acceptOffer(): Promise<void> {
    const before = await this.eventCount("service-valuation-updated");
    await this.wizard().getByRole("button", { name: "Accept offer" }).click();
    await this.waitForEvent("service-valuation-updated", before + 1);
    await expect(this.wizard()).toBeHidden();
  }

  /** The whole valuation from an open wizard: value, accept. Returns the offer in cents. */
  async valueAndAccept(category: string, model: string): Promise<number> {
    const offer = await this.valueDevice(category, model);
    await this.acceptOffer();
    return offer;
  }

  /**
   * Closes the wizard by its Close button (the login prompt has two, the × and "Close": either
   * closes it), or by the keyboard (Escape) as a keyboard user does.
   */
  async closeWizard(how: "button" | "escape" = "button"): Promise<void> {
    if (how === "escape") await this.page.keyboard.press("Escape");
    else await this.wizard().getByRole("button", { name: "Close" }).first().click();
    await expect(this.wizard()).toBeHidden();
  }

  /** Presses Tab (or Shift+Tab) `times` times; focus must stay inside the open wizard. */
  async expectFocusTrappedInWizard(times = 8): Promise<void> {
    for (const key of ["Tab", "Shift+Tab"]) {
      for (let i = 0; i < times; i++) {
        await this.page.keyboard.press(key);
        await expect(this.wizard().locator(":focus"), `focus after ${key} × ${i + 1}`).toHaveCount(
          1,
        );
      }
    }
  }

  // ---- payment modal ----

  /** The payment modal's dialog ("Pay with Service"). */
  paymentModal(): Locator {
    return this.page.getByRole("dialog", { name: "Pay with Service" });
  }

  /** The amounts the payment modal shows, as text. */
  async paymentAmounts(): Promise<{
    /** The cart's total as shown (`[data-amount="cart-total"]`). */
    cartTotal: string;
    /** The trade-in's discount as shown (`[data-amount="trade-in-discount"]`). */
    tradeInDiscount: string;
    /** What the shopper still pays as shown (`[data-amount="left-to-pay"]`). */
    leftToPay: string;
  }> {
    const modal = this.paymentModal();
    await expect(modal.locator('[data-amount="left-to-pay"]')).toBeVisible();
    const text = async (hook: string) =>
      ((await modal.locator(`[data-amount="${hook}"]`).textContent()) ?? "").trim();
    return {
      cartTotal: await text("cart-total"),
      tradeInDiscount: await text("trade-in-discount"),
      leftToPay: await text("left-to-pay"),
    };
  }

  /** Closes the payment modal by its Close button, as a shopper who changes their mind. */
  async closePaymentModal(): Promise<void> {
    await this.paymentModal().getByRole("button", { name: "Close" }).first().click();
    await expect(this.paymentModal()).toBeHidden();
  }

  /**
   * Pays in the open payment modal ("Card" by default), waits for the SDK to go to the shop's
   * confirmation page (`confirmUrl`: by default this shop's /checkout/confirmation; another
   * shop says which URL is its own), and returns the detail of `service-payment-completed`
   * (order_id, cart_id) from the tab's event log.
   */
  async pay(
    method: "Card" | "Bank transfer" = "Card",
    isConfirmation: (url: URL) => boolean = (url) => url.pathname === "/checkout/confirmation",
  ): Promise<{
    /** The order id the service knows the order by (the shop's, from its pending order). */
    order_id: string;
    /** The cart id of the purchase data the service was sent. */
    cart_id: string;
  }> {
    const modal = this.paymentModal();
    await expect(modal).toBeVisible();
    await modal
      .getByRole("group", { name: "How would you like to pay?" })
      .getByRole("radio", { name: method })
      .check();
    await modal.getByRole("button", { name: "Pay now" }).click();
    await this.page.waitForURL(isConfirmation);
    const completed = (await this.eventLog()).find((e) => e.name === "service-payment-completed");
    expect(completed, "the SDK dispatched service-payment-completed").toBeDefined();
    return completed?.detail as { order_id: string; cart_id: string };
  }

  /** The payment modal's item rows (the service's cart: the shop's lines and the delivery):
   *  name, quantity and line total as text, in order. */
  async paymentItems(): Promise<
    {
      /** The row's item name. */
      name: string;
      /** The row's quantity as text. */
      quantity: string;
      /** The row's line total as shown (price × quantity + tax). */
      total: string;
    }[]
  > {
    const modal = this.paymentModal();
    await expect(modal.locator('[data-amount="left-to-pay"]')).toBeVisible();
    const rows = modal.getByRole("table", { name: "Items" }).locator("tbody tr");
    return rows.evaluateAll((trs) =>
      trs.map((tr) => {
        const [name, quantity, total] = [...tr.querySelectorAll("td")].map(
          (td) => td.textContent?.trim() ?? "",
        );
        return { name: name ?? "", quantity: quantity ?? "", total: total ?? "" };
      }),
    );
  }

  /**
   * Presses "Pay now" as an impatient shopper does: a double click, or Enter twice on the
   * focused button. Does not wait for anything: the caller says what must follow.
   */
  async pressPayNowTwice(how: "double-click" | "enter twice"): Promise<void> {
    const button = this.paymentModal().getByRole("button", { name: "Pay now" });
    if (how === "double-click") return button.dblclick();
    await button.focus();
    await this.page.keyboard.press("Enter");
    await this.page.keyboard.press("Enter");
  }

  /** Presses "Pay now" once (the caller waits for what follows). */
  async pressPayNow(): Promise<void> {
    await this.paymentModal().getByRole("button", { name: "Pay now" }).click();
  }

  /** The payment modal's live status line ("Processing payment…", a failure, "Payment completed…"). */
  paymentStatus(): Locator {
    return this.paymentModal().getByRole("status");
  }

  /**
   * Counts the SDK's calls to the service (`/sdk/v1/…`) as this tab sends them, from now on,
   * by "METHOD path": what the browser can see of the payment's start and completion, with or
   * without a control API.
   */
  recordServiceCalls(): {
    /** How many of the calls recorded so far ("METHOD path") match `pattern`. */
    count(pattern: RegExp): number;
  } {
    const seen: string[] = [];
    this.page.on("request", (request) => {
      const url = new URL(request.url());
      if (request.method() !== "OPTIONS" && url.pathname.startsWith("/sdk/v1/"))
        seen.push(`${request.method()} ${url.pathname}`);
    });
    return { count: (pattern) => seen.filter((call) => pattern.test(call)).length };
  }

  /** The message the payment modal shows when Service Pay is not possible (role=alert). */
  paymentAlert(): Locator {
    return this.paymentModal().getByRole("alert");
  }

  // ---- the SDK's JavaScript object (contract: Front-end SDK methods) ----

  /**
   * Registers a merchant ready-to-place-order listener (as a page script would) that takes `ms`
   * to finish, then appends `{ name: "merchant-listener-done", detail: <what it was given> }` to
   * the tab's event log: the SDK must await it before the payment completes.
   */
  async addSlowReadyToPlaceOrderListener(ms = 500): Promise<void> {
    await this.page.evaluate((delay) => {
      (
        window as unknown as {
          Service: { addReadyToPlaceOrderListener(cb: (d: unknown) => Promise<void>): unknown };
        }
      ).Service.addReadyToPlaceOrderListener(
        (detail) =>
          new Promise((resolve) =>
            setTimeout(() => {
              const log = JSON.parse(sessionStorage.getItem("serviceEventLog") ?? "[]");
              log.push({ name: "merchant-listener-done", detail });
              sessionStorage.setItem("serviceEventLog", JSON.stringify(log));
              resolve();
            }, delay),
          ),
      );
    }, ms);
  }

  /** The SDK's `paymentOptionDetailsFor('ep1')` on the current page (contract: Front-end SDK). */
  paymentOptionDetails(): Promise<PaymentOptionDetails> {
    return this.page.evaluate(() =>
      (
        window as unknown as {
          Service: { paymentOptionDetailsFor(p: string): Promise<PaymentOptionDetails> };
        }
      ).Service.paymentOptionDetailsFor("ep1"),
    );
  }

  /** The SDK's `hasActiveTradeIn()` on the current page: the shopper holds an accepted
   *  trade-in. */
  hasActiveTradeIn(): Promise<boolean> {
    return this.page.evaluate(() =>
      (
        window as unknown as { Service: { hasActiveTradeIn(): boolean } }
      ).Service.hasActiveTradeIn(),
    );
  }
}
