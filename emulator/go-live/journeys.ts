// Go-live journeys an integrator runs against their OWN shop (emulator/README.md, "Go-live
// journeys"): the three test scenarios the service asks every merchant to pass before going live
// (Service Pay with the webhook; another method with the trade-in registered; no trade-in), as
// Playwright tests. The shop's own screens are the integrator's: they give small steps (a
// function per shopper action) and a callback that reads the shop's stored order; the service's
// screens are driven by ServiceSdkDriver; what the service stored is read from the emulator's
// control API. Each journey compares the three parties in integer cents (compare.ts).
import { expect, type Page, test } from "@playwright/test";
import * as z from "zod/mini";
import {
  cardTradeInDisagreements,
  centsFromText,
  plainPurchaseDisagreements,
  type StoredOrder,
  servicePayDisagreements,
} from "./compare.js";
import { EmulatorControl } from "./control.js";
import { EVERYDAY_DEVICE, ServiceSdkDriver, type TeaserType } from "./service-sdk-driver.js";

/** What every shop step and callback is given besides the page: the journey's emulator control
 *  and SDK driver. */
export interface GoLiveContext {
  /** The emulator's control API (what the service stored; the readiness declarations). */
  emulator: EmulatorControl;
  /** The driver of the service SDK's screens in this page. */
  sdk: ServiceSdkDriver;
}

/** A customer of the shop the journeys sign in (the service values devices only for one). */
export interface Customer {
  /** The customer's e-mail, as the shop's sign-in form takes it. */
  email: string;
  /** The customer's password in the shop. */
  password: string;
}

/** One shopper action on the shop's own pages. */
export type ShopStep = (page: Page, context: GoLiveContext) => Promise<void>;

/** The shop's own screens and records: the only part of a journey that differs between shops. */
export interface GoLiveShop {
  /** Signs `customer` in (called only when the options give a customer; else a guest shops).
   *  Required for scenarios 1 and 2. */
  signIn?: (page: Page, customer: Customer, context: GoLiveContext) => Promise<void>;
  /** Puts a product in the cart, ending on a page that shows the service's teaser. The cart must
   *  be worth at least the valued device's offer (EVERYDAY_DEVICE: at most 420.00). */
  addToCart: ShopStep;
  /** Goes to the checkout page (the SDK loads there: the journey waits for `service-ready`). */
  openCheckout: ShopStep;
  /** Fills the checkout form as a shopper does (address, e-mail…). */
  fillCheckout: ShopStep;
  /** The amount the checkout shows the shopper before any trade-in, delivery included, in cents
   *  (`centsFromText` reads a shown text). */
  readAmountToPay: (page: Page, context: GoLiveContext) => Promise<number>;
  /** Chooses the service's payment option (Contract, Service Pay: the `payment_method` radio). */
  chooseServicePay: ShopStep;
  /** Chooses the shop's own card payment. */
  chooseCard: ShopStep;
  /** Places the order (the checkout's pay / place-order button). With Service Pay this opens the
   *  service's payment modal; the journey pays in it. */
  placeOrder: ShopStep;
  /** After placeOrder with the card: the shop's own payment page, if it has one. */
  payByCard?: ShopStep;
  /** On the confirmation (thank-you) page: the order's number and the total it shows, in cents.
   *  Wait here for the shop's own "paid" state if it shows one. */
  readConfirmation: (
    page: Page,
    context: GoLiveContext,
  ) => Promise<{
    /** The order's number as the confirmation page shows it (storedOrder looks it up). */
    orderNumber: string;
    /** The total the confirmation page shows, integer cents. */
    total: number;
  }>;
  /** The shop's stored order with this number, read from its database or admin API — never
   *  from the pages the shopper saw — or undefined when it has none. */
  storedOrder: (orderNumber: string) => Promise<StoredOrder | undefined>;
}

/** What `defineGoLiveJourneys` takes (checked with zod): the shop's and emulator's URLs, the
 *  customer, the shop's steps, and which scenarios to declare. */
export interface GoLiveOptions {
  /** The shop's base URL (each journey starts at its home page). */
  shopUrl: string;
  /** The emulator the shop talks to (its control API is read for the service's side). */
  emulatorUrl: string;
  /** The customer `shop.signIn` signs in. Required for scenarios 1 and 2: the service values a
   *  device only for a signed-in customer (its SDK asks a guest to log in). Without it only
   *  scenario 3 can run, as a guest (`scenarios: [3]`). */
  customer?: Customer;
  /** The shop's steps and stored-order callback. */
  shop: GoLiveShop;
  /** Where the SDK lands after a Service Pay payment (the merchant's success URL), e.g.
   *  `(url) => url.pathname === "/checkout/confirmation"`. */
  isConfirmationPage: (url: URL) => boolean;
  /** The teaser whose call to action opens the valuation after addToCart. Default "banner". */
  teaser?: TeaserType;
  /** The device valued (category and model as the wizard names them). Default EVERYDAY_DEVICE. */
  device?: {
    /** The wizard's category, by its visible name. */
    category: string;
    /** The wizard's model, by its visible name. */
    model: string;
  };
  /** The scenarios to declare. Default all three; a shop without Service Pay leaves out 1. */
  scenarios?: ReadonlyArray<1 | 2 | 3>;
  /** With it, one more journey exercises the readiness rules the scenarios cannot (READINESS_RULES:
   *  token expiry, a 401, a 429 with backoff, the raw session declared), so that `service-emulator
   *  readiness --strict --active` passes after the journeys. Needs `customer`. */
  readiness?: ReadinessOptions;
}

/** What the readiness journey needs beyond the scenarios' options (GoLiveOptions.readiness). */
export interface ReadinessOptions {
  /** The merchant id the shop uses (the readiness report is per merchant). */
  merchantId: string;
  /** The signed-in shopper's raw session id and salt as the shop keeps them (e.g. its session
   *  cookie, unsealed with the test's own secret), read after `shop.signIn`: declared to the
   *  emulator, which then checks they never reach the service (privacy.raw-session). */
  rawSession: (
    page: Page,
    context: GoLiveContext,
  ) => Promise<
    | {
        /** The shop's raw session identifier (never sent to the service: it gets the hash). */
        sessionId: string;
        /** The session's salt, the HMAC key of its session hash (contract: Session hash). */
        salt: string;
      }
    | null
    | undefined
  >;
}

/** The readiness rules (emulator/README.md, "Go-live readiness report") no go-live scenario
 *  exercises, which the readiness journey does. */
export const READINESS_RULES = [
  "token.refresh-used",
  "token.refresh-on-401",
  "api.backoff",
  "privacy.raw-session",
] as const;

/** The readiness journey's title. */
export const READINESS_JOURNEY =
  "go-live readiness: an expired token renewed, a 401 refreshed once, a 429's Retry-After kept, the raw session never sent";

const optionsSchema = z.object({
  shopUrl: z.url().check(z.maxLength(2048)),
  emulatorUrl: z.url().check(z.maxLength(2048)),
  customer: z.optional(
    z.object({
      email: z.string().check(z.minLength(1), z.maxLength(320)),
      password: z.string().check(z.maxLength(1024)),
    }),
  ),
  teaser: z.optional(z.enum(["banner", "product-widget", "cart-summary", "thank-you"])),
  device: z.optional(
    z.object({
      category: z.string().check(z.minLength(1), z.maxLength(200)),
      model: z.string().check(z.minLength(1), z.maxLength(200)),
    }),
  ),
  scenarios: z.optional(
    z
      .array(z.union([z.literal(1), z.literal(2), z.literal(3)]))
      .check(z.minLength(1), z.maxLength(3)),
  ),
  readiness: z.optional(
    z.object({ merchantId: z.string().check(z.minLength(1), z.maxLength(200)) }),
  ),
});

/** The scenarios' titles, as the service's go-live list words them. */
export const GO_LIVE_SCENARIOS = {
  /** Service Pay with a trade-in: the order webhook and the thank-you page. */
  1: "go-live scenario 1: Service Pay with a trade-in; the order webhook arrives; the thank-you page shows",
  /** A card payment with the trade-in registered by register-purchase. */
  2: "go-live scenario 2: card payment; the trade-in is registered (register-purchase); the thank-you page shows",
  /** A plain purchase with no trade-in. */
  3: "go-live scenario 3: no trade-in; a plain purchase, the service does not get in the way",
} as const;

/**
 * Declares the go-live journeys (one Playwright test per scenario, in a `describe`) in the
 * calling test file. Call it at the top level of a test file. The journeys share the one
 * emulator and read what it stored by order: run them with `workers: 1` or one emulator each.
 */
export function defineGoLiveJourneys(options: GoLiveOptions): void {
  const checked = optionsSchema.parse(options);
  const { shop } = options;
  const device = checked.device ?? EVERYDAY_DEVICE;
  const teaser = checked.teaser ?? "banner";
  const scenarios = new Set(checked.scenarios ?? [1, 2, 3]);
  const emulator = new EmulatorControl(checked.emulatorUrl);
  // Refused when declared, not after a journey has waited out its timeout in the wizard.
  const needsCustomer = [...scenarios].filter((n) => n !== 3);
  if (!checked.customer && needsCustomer.length > 0)
    throw new Error(
      `defineGoLiveJourneys: scenario ${needsCustomer.join(" and ")} needs options.customer ` +
        "(and shop.signIn): the service values a device only for a signed-in customer, and " +
        "asks a guest to log in. Give a customer of your shop, or run `scenarios: [3]` as a guest.",
    );
  if (options.readiness && !checked.customer)
    throw new Error(
      "defineGoLiveJourneys: options.readiness needs options.customer (its journey values a " +
        "device and pays by card with the trade-in, as scenario 2).",
    );
  if (checked.customer && !shop.signIn)
    throw new Error("defineGoLiveJourneys: options.customer is given but shop.signIn is not");

  /** Starts a journey: the SDK's events recorded, the shop's home page, the customer signed in,
   *  a product in the cart. */
  async function start(page: Page): Promise<GoLiveContext> {
    const sdk = await ServiceSdkDriver.attach(page);
    const context = { emulator, sdk };
    await page.goto(checked.shopUrl);
    if (checked.customer) await shop.signIn?.(page, checked.customer, context);
    await shop.addToCart(page, context);
    await sdk.ready();
    return context;
  }

  /** Values the device in the SDK's wizard from the teaser and accepts the offer (cents). */
  async function tradeIn({ sdk }: GoLiveContext): Promise<number> {
    await sdk.openWizardFromTeaser(teaser);
    return sdk.valueAndAccept(device.category, device.model);
  }

  /** To the checkout, filled in; answers the amount it shows to pay (cents). */
  async function checkout(page: Page, context: GoLiveContext): Promise<number> {
    await shop.openCheckout(page, context);
    await context.sdk.ready();
    await shop.fillCheckout(page, context);
    return shop.readAmountToPay(page, context);
  }

  /** The shop's stored order once it is paid (the webhook or the card may settle it later). */
  async function storedWhenPaid(orderNumber: string): Promise<StoredOrder | undefined> {
    await expect
      .poll(async () => (await shop.storedOrder(orderNumber))?.paid, {
        message: `the shop's stored order ${orderNumber} becomes paid`,
      })
      .toBe(true);
    return shop.storedOrder(orderNumber);
  }

  test.describe("go-live journeys", () => {
    test.use({ baseURL: checked.shopUrl });

    // An emulator that is down fails here in seconds, naming its URL, instead of every journey
    // waiting out its timeout for an SDK that cannot load.
    test.beforeAll(() => emulator.ensureReachable());

    // No uncaught exception in any page of a journey (the SDK's or the shop's).
    const pageErrors: string[] = [];
    test.beforeEach(({ page }) => {
      pageErrors.length = 0;
      page.on("pageerror", (error) => pageErrors.push(error.message));
    });
    test.afterEach(() => expect(pageErrors).toEqual([]));

    if (scenarios.has(1))
      test(GO_LIVE_SCENARIOS[1], async ({ page }) => {
        const context = await start(page);
        const offer = await tradeIn(context);
        const amountToPay = await checkout(page, context);
        await shop.chooseServicePay(page, context);
        await shop.placeOrder(page, context);
        const shown = await context.sdk.paymentAmounts();
        const modal = {
          cartTotal: centsFromText(shown.cartTotal),
          // Shown as a deduction ("-€120.00") or as the value: the amount is what counts.
          tradeInDiscount: Math.abs(centsFromText(shown.tradeInDiscount)),
          leftToPay: centsFromText(shown.leftToPay),
        };
        const paid = await context.sdk.pay("Card", options.isConfirmationPage);
        // Contract, Webhooks: the service notifies the shop of the paid order; the shop answers
        // 2xx once it has recorded it (the emulator marks the notification "delivered").
        await expect
          .poll(() => emulator.webhookStatuses(paid.order_id), {
            message: `the order webhook for ${paid.order_id} is delivered (the shop answered 2xx)`,
          })
          .toContain("delivered");
        const confirmation = await shop.readConfirmation(page, context);
        const stored = await storedWhenPaid(confirmation.orderNumber);
        const service = (await emulator.orders()).find((o) => o.order_id === paid.order_id);
        expect(
          servicePayDisagreements({
            shown: { amountToPay, offer, modal, confirmationTotal: confirmation.total },
            service,
            shop: stored,
          }),
        ).toEqual([]);
      });

    if (scenarios.has(2))
      test(GO_LIVE_SCENARIOS[2], async ({ page }) => {
        const context = await start(page);
        await tradeIn(context);
        const amountToPay = await checkout(page, context);
        await shop.chooseCard(page, context);
        await shop.placeOrder(page, context);
        await shop.payByCard?.(page, context);
        const confirmation = await shop.readConfirmation(page, context);
        const stored = await storedWhenPaid(confirmation.orderNumber);
        // Contract, register-purchase: after the order is complete the shop tells the service
        // its amount, with the order's id (here: the number the shopper was shown).
        await expect
          .poll(async () => (await emulator.receipts(confirmation.orderNumber)).length, {
            message: `the shop registers order ${confirmation.orderNumber} with the service`,
          })
          .toBeGreaterThan(0);
        expect(
          cardTradeInDisagreements({
            shown: { amountToPay, confirmationTotal: confirmation.total },
            receipts: await emulator.receipts(confirmation.orderNumber),
            shop: stored,
          }),
        ).toEqual([]);
      });

    if (scenarios.has(3))
      test(GO_LIVE_SCENARIOS[3], async ({ page }) => {
        const context = await start(page);
        const amountToPay = await checkout(page, context);
        // The service's own word on this shopper: nothing accepted.
        expect(await context.sdk.hasActiveTradeIn()).toBe(false);
        await shop.chooseCard(page, context);
        await shop.placeOrder(page, context);
        await shop.payByCard?.(page, context);
        const confirmation = await shop.readConfirmation(page, context);
        const stored = await storedWhenPaid(confirmation.orderNumber);
        expect(
          plainPurchaseDisagreements({
            shown: { amountToPay, confirmationTotal: confirmation.total },
            receipts: await emulator.receipts(confirmation.orderNumber),
            shop: stored,
          }),
        ).toEqual([]);
      });

    // The rules the scenarios leave unexercised, on scenario 2's path (a card payment with the
    // trade-in, so the shop's server calls the service): the service's clock moved past the
    // access token's hour (Authentication 1 and 4: the shop's next call is refused with 401, then
    // one refresh, never a password login), one 429 with Retry-After: 1 on the session look-up
    // (Errors › Client guidance: the shop waits before calling again; 1 s is within the kit's
    // 10 s limit of what it waits for inline), and the shopper's raw session declared
    // (Authentication 6). Ends with the report's own verdict on the four rules.
    const { readiness } = options;
    if (readiness)
      test(READINESS_JOURNEY, async ({ page }) => {
        const context = await start(page);
        const raw = await readiness.rawSession(page, context);
        if (!raw?.sessionId || !raw.salt)
          throw new Error(
            "options.readiness.rawSession gave no session id and salt for the signed-in " +
              "shopper: read them from the shop's own session (e.g. its cookie, unsealed).",
          );
        await emulator.declareRawSession(readiness.merchantId, raw);
        await tradeIn(context);
        await emulator.call("POST", "/clock/advance", { minutes: 61 });
        await emulator.call("POST", "/faults", {
          endpoint: "session",
          status: 429,
          retry_after_seconds: 1,
          count: 1,
        });
        await checkout(page, context);
        await shop.chooseCard(page, context);
        await shop.placeOrder(page, context);
        await shop.payByCard?.(page, context);
        const confirmation = await shop.readConfirmation(page, context);
        await storedWhenPaid(confirmation.orderNumber);
        await expect
          .poll(async () => (await emulator.receipts(confirmation.orderNumber)).length, {
            message: `the shop registers order ${confirmation.orderNumber} with the service`,
          })
          .toBeGreaterThan(0);
        const judged = (await emulator.readinessRules(readiness.merchantId)).filter((r) =>
          (READINESS_RULES as readonly string[]).includes(r.id),
        );
        expect(
          judged.filter((r) => r.verdict !== "pass").map((r) => `${r.id}: ${r.note}`),
          "the readiness rules this journey exercises",
        ).toEqual([]);
        expect(judged.map((r) => r.id).sort()).toEqual([...READINESS_RULES].sort());
      });
  });
}
