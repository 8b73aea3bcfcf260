// Every SDK item of the contract (Front-end SDK, SDK browser events, Payment option details and
// mode), and the browser tests that exercise it, by suite and title. The order webhook is not
// among them: it goes from the service to the shop, with no SDK between (the shop's own
// journeys test it, ./selection.ts SHOP_OWN; the release run's readiness report checks it). The release report shows each item passed or failed per SDK build; an
// item no test covers fails the run, so a renamed test is noticed here instead of silently
// dropping out of the table.

export type SuiteName = "sdk-page" | "storefront";

export interface TestRef {
  suite: SuiteName;
  /** matched against the test's full title (describe titles joined with " › ") */
  title: RegExp;
}

export interface ContractItem {
  group: string;
  name: string;
  /** the contract section (integration-contract.md) */
  section: string;
  tests: TestRef[];
  /**
   * Why no test of the staging run (without the bundled emulator, ./selection.ts) can cover it:
   * what only the emulator offers. The report counts the items the staging run covers and
   * fails when this field and the tests disagree (a test without the emulator covers an item
   * said to need it, or none covers an item not said to).
   */
  needsEmulator?: string;
}

const page = (title: RegExp): TestRef => ({ suite: "sdk-page", title });
const shop = (title: RegExp): TestRef => ({ suite: "storefront", title });

const SCENARIO_1 = shop(/^go-live scenario 1:/);
/** The shop's amounts with the trade-in (paymentOptionDetailsFor's data.valuation, shown while
 *  hasActiveTradeIn()) and the service's window, by formula, without the control API. */
const ONE_AMOUNT = shop(/^Service Pay: the cart page and the service's window show/);
const CART_CHANGE = shop(/^Service Pay after a cart change: the service's window/);
/** A promotion code and the shopper's own offer above, then below, the cart's total: the option
 *  and every figure of the service's window by formula from the shop's pages. */
const PROMOTION_CODE = shop(/^Service Pay with a promotion code, the trade-in above/);

/** Why the SDK test page's items need the bundled emulator: the page is the emulator's own. */
const TEST_PAGE_ONLY = (what: string) =>
  `only the SDK test page, served by the bundled emulator, exercises ${what}`;
const KEYBOARD_VALUATION = page(/^the whole valuation by keyboard alone/);
const PAYMENT_JOURNEY = page(/^openPayment: summary, a way to pay/);
const AMOUNTS_BY_FORMULA = [
  page(/^the payment modal's amounts by formula/),
  shop(/^Pay now double-clicked: one payment start/),
  shop(/^GBP, Pay now pressed with Enter twice/),
];
const TEASER_WORDS = [
  page(/^each teaser type shows its own words/),
  shop(/^each teaser placement shows its own type's words/),
  shop(/^with an accepted trade-in every teaser placement shows the offer/),
];

const method = (name: string, tests: TestRef[]): ContractItem => ({
  group: "Methods",
  name: `${name}()`,
  section: "Front-end SDK › SDK methods",
  tests,
});
const event = (name: string, payload: string, tests: TestRef[]): ContractItem => ({
  group: "Events and payloads",
  name: `${name} ${payload}`,
  section: "Events › SDK browser events",
  tests,
});
const option = (name: string, tests: TestRef[], needsEmulator?: string): ContractItem => ({
  group: "Payment option details",
  name,
  section: "Payment option details; States › Payment option mode",
  tests,
  ...(needsEmulator ? { needsEmulator } : {}),
});
const teaser = (type: string, tests: TestRef[]): ContractItem => ({
  group: "Teaser types",
  name: type,
  section: "Front-end SDK › Teasers",
  tests,
});

export const CONTRACT_ITEMS: ContractItem[] = [
  {
    group: "Loading",
    name: "v1/main.js module exports the service object (window.Service)",
    section: "Front-end SDK; Versioning",
    tests: [page(/^start-up binds the session/), SCENARIO_1],
  },
  {
    group: "Loading",
    name: "the shop still works when the SDK cannot load",
    section: "Front-end SDK",
    tests: [shop(/^the SDK cannot load/)],
  },
  {
    group: "Loading",
    name: "configuration errors: no serviceConfiguration, or one without merchantId, browserCallbackBase or confirmUrl, refused at import saying what it needs; selectors and a data-target that match nothing, an unknown data-type: no error",
    section: "Front-end SDK › Configuration object; Teasers",
    tests: [page(/^a configuration without merchantId/), page(/^a marker whose data-target/)],
    needsEmulator: TEST_PAGE_ONLY("pages with a broken configuration or teaser markup"),
  },
  method("openValuation", [
    page(/^the wizard is a labelled modal dialog/),
    page(/^Back keeps the answers/),
    shop(/^tradein_missing: choosing the option opens the wizard/),
  ]),
  method("openPayment", [
    PAYMENT_JOURNEY,
    page(/^openPayment when Service Pay is not possible/),
    SCENARIO_1,
  ]),
  method("updatePaymentSelected", [
    page(/^updatePaymentSelected fires selected/),
    page(/^tradein_missing without a valuation/),
    shop(/^tradein_missing: choosing the option opens the wizard/),
    shop(/^tradein_missing: closing the wizard/),
  ]),
  method("paymentOptionDetailsFor", [
    page(/^tradein_valid: data carries the raw values/),
    page(/^unavailable when the page's products lack ep1/),
    shop(/^tradein_valid: selectable/),
    ONE_AMOUNT,
  ]),
  method("addReadyToPlaceOrderListener", [
    PAYMENT_JOURNEY,
    page(
      /^Service.ready resolves after service-ready; a ready-to-place-order listener unsubscribed/,
    ),
    page(/^a failing ready-to-place-order listener/),
    SCENARIO_1,
  ]),
  method("hasActiveTradeIn", [
    page(/^start-up binds the session/),
    page(/^after a valuation every teaser shows the offer/),
    page(/^Back keeps the answers/),
    shop(/^card payment with a trade-in › an expired valuation makes Service Pay ask/),
    ONE_AMOUNT,
  ]),
  event("service-ready", "(no detail)", [page(/^start-up binds the session/), SCENARIO_1]),
  event("service-valuation-updated", "{ message, tradein_id, value, currency, valid_until }", [
    KEYBOARD_VALUATION,
    SCENARIO_1,
  ]),
  event("service-payment-completed", "{ message, order_id, cart_id }", [
    PAYMENT_JOURNEY,
    SCENARIO_1,
  ]),
  event("service-modal-closed", "{ message, modal }", [
    page(/^focus stays inside the wizard, Shift\+Tab goes back/),
    page(/^a cart changed since the session saw it/),
    KEYBOARD_VALUATION,
    shop(/^tradein_missing: closing the wizard/),
  ]),
  event("servicepay-payment-method-selected", "{ message, mode, tradein_id }", [
    page(/^updatePaymentSelected fires selected/),
    page(/^tradein_missing without a valuation/),
    SCENARIO_1,
  ]),
  event("servicepay-payment-method-unselected", "(no detail)", [
    page(/^updatePaymentSelected fires selected/),
    shop(/^tradein_missing: choosing the option opens the wizard/),
  ]),
  event("service-ready-to-place-order", "{ message, cart_id, order_id }", [
    PAYMENT_JOURNEY,
    SCENARIO_1,
  ]),
  event("service-new-user-valuation-started", "{ message, model_id }", [
    KEYBOARD_VALUATION,
    SCENARIO_1,
  ]),
  event("service-purchase-updated", "{ message, session_id }", [
    page(/^a changed cart moves the session to its next version/),
    page(/^a cart changed since the session saw it/),
    shop(/a session superseded by a cart change/),
    CART_CHANGE,
  ]),
  option(
    "mode unavailable",
    [
      page(/^unavailable when the page's products lack ep1/),
      shop(/^unavailable: Service Pay not enabled/),
    ],
    "changes the merchant's products through the control API (Service Pay switched off)",
  ),
  option("mode tradein_missing", [
    page(/^tradein_missing without a valuation/),
    shop(/^tradein_missing: choosing the option/),
    shop(/^tradein_missing: closing the wizard/),
  ]),
  option("mode tradein_valid", [
    page(/^tradein_valid: data carries the raw values/),
    shop(/^tradein_valid: selectable/),
    SCENARIO_1,
  ]),
  option("mode tradein_invalid, template currency", [
    page(/^tradein_invalid \/ currency/),
    shop(/^tradein_invalid\/currency: an offer in GBP/),
    shop(/^tradein_invalid\/currency: switching the shop to GBP/),
  ]),
  option("mode tradein_invalid, template cart_below_limit", [
    page(/^tradein_invalid \/ cart_below_limit/),
    PROMOTION_CODE,
  ]),
  option(
    "mode tradein_invalid, template other_ok",
    [page(/^tradein_invalid \/ other_ok/), shop(/^tradein_invalid\/other_ok/)],
    "an offer under Service Pay's minimum cart: a valuation made through the control API",
  ),
  {
    group: "Markup the SDK relies on",
    name: "teasers: .service-teaser[data-type], data-target, the *CssSelector settings",
    section: "Front-end SDK › Teasers; Configuration object",
    tests: [
      page(/^teasers before a valuation/),
      shop(/^teasers placed as another merchant's page places them/),
    ],
  },
  {
    group: "Markup the SDK relies on",
    name: "teasers rendered after the SDK started, anywhere in the page (a single-page app's client-side navigation)",
    section: "Front-end SDK › Teasers",
    tests: [
      page(/^teasers added later/),
      shop(/^each teaser placement shows its own type's words/),
    ],
  },
  {
    group: "Markup the SDK relies on",
    name: "only the teasers the SDK made are re-rendered after a valuation; a merchant's own element with the teaser's attribute keeps its content",
    section: "Front-end SDK › Teasers",
    tests: [page(/^after a valuation the SDK re-renders only the teasers it made/)],
    needsEmulator: TEST_PAGE_ONLY("an element of the merchant's own with the SDK's attribute"),
  },
  {
    group: "Markup the SDK relies on",
    name: "payment option: radio payment_method / data-module-name / icon; submit opens the payment",
    section: "Front-end SDK › Payment option markup",
    tests: [SCENARIO_1, shop(/^submitting with Service Pay checks the details/)],
  },
  teaser("banner", [page(/^teasers before a valuation/), SCENARIO_1, ...TEASER_WORDS]),
  teaser("product-widget", [page(/^teasers before a valuation/), SCENARIO_1, ...TEASER_WORDS]),
  teaser("cart-summary", [page(/^teasers before a valuation/), SCENARIO_1, ...TEASER_WORDS]),
  teaser("thank-you", [PAYMENT_JOURNEY, SCENARIO_1, ...TEASER_WORDS]),
  {
    group: "Teaser types",
    name: "offer shown after a valuation (also after a reload), in the right unit",
    section: "Front-end SDK › Teasers",
    tests: [page(/^after a valuation every teaser shows the offer/), SCENARIO_1, ...TEASER_WORDS],
  },
  {
    group: "Wizard",
    name: "valuation wizard: steps, validation, Back, magic devices, anonymous shopper",
    section: "What the service does (1); Front-end SDK",
    tests: [
      page(/^the wizard is a labelled modal dialog/),
      page(/^Back keeps the answers/),
      page(/^an anonymous shopper/),
      SCENARIO_1,
    ],
  },
  {
    group: "Wizard",
    name: "wizard accessibility: keyboard alone, focus trap, Escape and other close requests, focus return, axe",
    section: "Front-end SDK (accessibility)",
    tests: [
      KEYBOARD_VALUATION,
      page(/^focus stays inside the wizard, Shift\+Tab goes back/),
      page(/^a close request that is no key press/),
      page(/^the teasers and every wizard step pass an axe scan/),
      shop(/^tradein_missing: closing the wizard/),
      shop(/^with an accepted trade-in every teaser placement shows the offer/),
    ],
  },
  {
    group: "Payment modal",
    name: "payment modal: items, amounts in cents, way to pay, not possible, empty cart",
    section: "What the service does (4); Front-end SDK",
    tests: [
      PAYMENT_JOURNEY,
      ...AMOUNTS_BY_FORMULA,
      page(/^openPayment when Service Pay is not possible/),
      page(/^a cart changed since the session saw it/),
      SCENARIO_1,
      ONE_AMOUNT,
      CART_CHANGE,
      PROMOTION_CODE,
    ],
  },
  {
    group: "Payment modal",
    name: "payment modal accessibility: axe, Escape",
    section: "Front-end SDK (accessibility)",
    tests: [page(/^the payment modal passes an axe scan/), page(/^openPayment when Service Pay/)],
    needsEmulator: TEST_PAGE_ONLY("the payment modal's axe scan and Escape"),
  },
  {
    group: "Shopper actions twice",
    name: "open the wizard, get an offer, accept, select and unselect Service Pay, pay, close: each done twice in quick succession has one effect (one call, one event of each kind, one order)",
    section: "Front-end SDK › SDK methods; Events › SDK browser events",
    tests: [
      page(/^done twice › /),
      shop(/^Pay now double-clicked: one payment start/),
      shop(/^GBP, Pay now pressed with Enter twice/),
    ],
  },
  {
    group: "SDK calls failing",
    name: "shopper_data, init, observations, catalog, valuations, accept, purchase_data, payment-option, payment start and completion answered with an error or not at all: no success event, text or redirect; the shop's pages tell the truth; again, exactly once",
    section: "Front-end SDK; Events › SDK browser events; What the service does (4)",
    tests: [
      page(/^a call failing › /),
      page(/^start-up's init unanswered: after the SDK's 30 s/),
      shop(/^the payment's completion never answered/),
      shop(/^the service answers the payment's start 500, then its completion 503/),
      // The shopper's browser fails the calls (no control API): each error state's shape.
      shop(/^the wizard's error states on the shop's pages/),
      shop(/^the payment window on the shop's checkout has its committed shape/),
    ],
  },
  {
    group: "Localisation",
    name: "texts in the page's language (es)",
    section: "Payment option details (localized label, info, extra)",
    tests: [page(/^Spanish pages get Spanish teasers/)],
    needsEmulator: TEST_PAGE_ONLY("a page in Spanish (the shop's pages are in English)"),
  },
  {
    group: "Localisation",
    name: "every text of the SDK's message table read where it shows, in every state (errors and empty states too), in each language it ships (en, es)",
    section: "Front-end SDK",
    tests: [page(/^every SDK word \(/)],
    needsEmulator: TEST_PAGE_ONLY("every state of every surface, in each language in turn"),
  },
  {
    group: "Surfaces",
    name: "every surface renders for the shopper (teasers per type and template, wizard steps, payment option per mode, payment modal per state; EUR and GBP; desktop and phone), shown beside the baseline's in the Surfaces section",
    section: "Front-end SDK; Payment option details; States › Payment option mode",
    tests: [page(/every SDK surface as the shopper sees it/)],
    needsEmulator: TEST_PAGE_ONLY(
      "every mode and state put on one page in turn, with a frozen clock for the dates",
    ),
  },
];
