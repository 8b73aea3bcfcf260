// The go-live journeys' pure logic: reading an amount the shopper was shown, and comparing what
// the three parties hold for one order — the shopper's screen, the service (control API) and
// the shop (its own callback) — in integer cents. Each comparison answers a list of the
// disagreements in words (empty when all agree), so a failed journey says which party differs.

/**
 * The first amount in a text as a page shows it ("€1,234.56", "1.234,56 €", "EUR 420",
 * "-€12.00") in integer cents. The last "." or "," followed by exactly one or two digits is the decimal mark; any
 * other "." or "," groups thousands. Throws when the text holds no amount.
 */
export function centsFromText(text: string): number {
  const bounded = text.slice(0, 200);
  const match = /-?\s*[€$£]?\s*(\d[\d.,\s\u00a0\u202f]*)/.exec(bounded);
  if (!match?.[1]) throw new Error(`no amount in ${JSON.stringify(bounded)}`);
  const negative = match[0].trimStart().startsWith("-");
  const number = match[1].replace(/[\s\u00a0\u202f]/g, "").replace(/[.,]$/, "");
  const decimal = /[.,](\d{1,2})$/.exec(number);
  const whole = (decimal ? number.slice(0, decimal.index) : number).replace(/[.,]/g, "");
  const cents = Number(whole) * 100 + (decimal?.[1] ? Number(decimal[1].padEnd(2, "0")) : 0);
  if (!Number.isSafeInteger(cents)) throw new Error(`not an amount: ${JSON.stringify(bounded)}`);
  return negative ? -cents : cents;
}

/** The shop's own record of an order, as the integrator's callback reads it (integer cents). */
export interface StoredOrder {
  /** What the shopper owes the shop for the order after any trade-in discount. */
  total: number;
  /** The trade-in value taken off at once (Service Pay); 0 when none was. */
  tradeInDiscount: number;
  /** Whether the shop holds the order as paid (its paid status reached). */
  paid: boolean;
}

/** The service's order (control API `GET /__emulator/orders`). */
export interface ServiceOrder {
  /** The order id the service knows the order by (the shop's, contract: Resources › Order). */
  order_id: string;
  /** The order's amount, integer cents. */
  amount: number;
  /** The trade-in's discount on the order, integer cents. */
  trade_in_discount: number;
}

/** One `POST /register-purchase` the service received (`GET /__emulator/register-purchases`). */
export interface RegisterPurchaseReceipt {
  /** The shop's order id the purchase was registered for. */
  order_id: string;
  /** The body's `order_amount`, integer cents (contract: Endpoints › POST /register-purchase). */
  order_amount: number;
  /** The HTTP status the service answered. */
  status: number;
  /** True when the service had already registered this purchase (answered as before). */
  duplicate?: boolean;
}

type Named = [label: string, value: number | undefined];

/** Every pair that differs, and every value that is not integer cents, in words. */
function differences(pairs: [Named, Named][]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [a, b] of pairs) {
    for (const [label, value] of [a, b]) {
      if (seen.has(label)) continue;
      seen.add(label);
      if (value === undefined) problems.push(`${label} is missing`);
      else if (!Number.isSafeInteger(value))
        problems.push(`${label} is not integer cents: ${value}`);
    }
    if (a[1] !== undefined && b[1] !== undefined && a[1] !== b[1])
      problems.push(`${a[0]} (${a[1]}) ≠ ${b[0]} (${b[1]})`);
  }
  return problems;
}

/** What the shopper saw on the shop's pages and in the service's payment modal. */
export interface ShownAmounts {
  /** The order's total shown at checkout before any trade-in (delivery included). */
  amountToPay: number;
  /** The confirmation page's total. */
  confirmationTotal: number;
}

/**
 * Scenario 1 (Service Pay): the service took the accepted offer off at once, so it collects the
 * order's amount less the trade-in discount; the modal, the confirmation and both records say so.
 */
export function servicePayDisagreements(parties: {
  shown: ShownAmounts & {
    offer: number;
    modal: { cartTotal: number; tradeInDiscount: number; leftToPay: number };
  };
  service: ServiceOrder | undefined;
  shop: StoredOrder | undefined;
}): string[] {
  const { shown, service, shop } = parties;
  const left = shown.amountToPay - shown.offer;
  const problems = differences([
    [
      ["the checkout's amount to pay", shown.amountToPay],
      ["the payment modal's cart total", shown.modal.cartTotal],
    ],
    [
      ["the accepted offer", shown.offer],
      ["the payment modal's trade-in discount", shown.modal.tradeInDiscount],
    ],
    [
      ["the amount to pay less the offer", left],
      ["the payment modal's left to pay", shown.modal.leftToPay],
    ],
    [
      ["the amount to pay less the offer", left],
      ["the confirmation's total", shown.confirmationTotal],
    ],
    [
      ["the checkout's amount to pay", shown.amountToPay],
      ["the service's order amount", service?.amount],
    ],
    [
      ["the accepted offer", shown.offer],
      ["the service's trade-in discount", service?.trade_in_discount],
    ],
    [
      ["the confirmation's total", shown.confirmationTotal],
      ["the shop's stored total", shop?.total],
    ],
    [
      ["the service's trade-in discount", service?.trade_in_discount],
      ["the shop's stored trade-in discount", shop?.tradeInDiscount],
    ],
  ]);
  if (shop && !shop.paid) problems.push("the shop's stored order is not paid");
  return problems;
}

/** The receipts of one order: exactly one accepted (200) and not a duplicate, else words. */
function registeredOnce(receipts: RegisterPurchaseReceipt[]): string[] {
  const accepted = receipts.filter((r) => r.status === 200 && !r.duplicate);
  const problems: string[] = [];
  if (accepted.length !== 1)
    problems.push(`the service accepted ${accepted.length} register-purchase calls, not 1`);
  for (const r of receipts.filter((r) => r.status !== 200 || r.duplicate))
    problems.push(
      `a register-purchase was ${r.duplicate ? "a duplicate" : `answered ${r.status}`}`,
    );
  return problems;
}

/**
 * Scenario 2 (another method, the trade-in registered): the shopper pays the whole order by
 * card and the service is told the order's amount by register-purchase; no discount is taken.
 */
export function cardTradeInDisagreements(parties: {
  shown: ShownAmounts;
  receipts: RegisterPurchaseReceipt[];
  shop: StoredOrder | undefined;
}): string[] {
  const { shown, receipts, shop } = parties;
  const problems = differences([
    [
      ["the checkout's amount to pay", shown.amountToPay],
      ["the confirmation's total", shown.confirmationTotal],
    ],
    [
      ["the confirmation's total", shown.confirmationTotal],
      ["the shop's stored total", shop?.total],
    ],
    [
      ["the checkout's amount to pay", shown.amountToPay],
      ["the registered order amount", receipts.find((r) => r.status === 200)?.order_amount],
    ],
    [
      ["no trade-in discount", 0],
      ["the shop's stored trade-in discount", shop?.tradeInDiscount],
    ],
  ]);
  problems.push(...registeredOnce(receipts));
  if (shop && !shop.paid) problems.push("the shop's stored order is not paid");
  return problems;
}

/**
 * Scenario 3 (no trade-in): a plain purchase; the service does not get in the way — the shop
 * charges the whole amount and tells the service nothing about the order.
 */
export function plainPurchaseDisagreements(parties: {
  shown: ShownAmounts;
  receipts: RegisterPurchaseReceipt[];
  shop: StoredOrder | undefined;
}): string[] {
  const { shown, receipts, shop } = parties;
  const problems = differences([
    [
      ["the checkout's amount to pay", shown.amountToPay],
      ["the confirmation's total", shown.confirmationTotal],
    ],
    [
      ["the confirmation's total", shown.confirmationTotal],
      ["the shop's stored total", shop?.total],
    ],
    [
      ["no trade-in discount", 0],
      ["the shop's stored trade-in discount", shop?.tradeInDiscount],
    ],
  ]);
  if (receipts.length > 0)
    problems.push(`the shop registered a purchase without a trade-in (${receipts.length} calls)`);
  if (shop && !shop.paid) problems.push("the shop's stored order is not paid");
  return problems;
}
