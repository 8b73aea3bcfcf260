import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

// Realistic SDK regressions for `npm run mutants:sdk`, each a text change to one file of a COPY
// of emulator/sdk. `from` must occur in the file (exactly once unless `all`), so a mutant that no
// longer applies after an SDK change fails the run instead of silently testing the original.

export interface Mutation {
  id: string;
  /** what an SDK engineer would have broken */
  description: string;
  /** visible to a shopper on the storefront (the subset without the bundled emulator must kill it) */
  shopperVisible: boolean;
  file: string;
  from: string;
  to: string;
  all?: boolean;
}

export const MUTATIONS: Mutation[] = [
  {
    id: "event-not-fired",
    description: "service-new-user-valuation-started is never dispatched",
    shopperVisible: false,
    file: "wizard.ts",
    from: 'emit("service-new-user-valuation-started", {',
    to: 'void ("service-new-user-valuation-started", {',
  },
  {
    id: "event-renamed",
    description: "service-valuation-updated dispatched as service-valuation-update",
    shopperVisible: true,
    file: "service.ts",
    from: 'emit("service-valuation-updated", {',
    to: 'emit("service-valuation-update" as never, {',
  },
  {
    id: "payload-field-renamed",
    description: "service-ready-to-place-order detail carries orderId instead of order_id",
    shopperVisible: true,
    file: "payment.ts",
    from: "order_id: order.order_id,",
    to: "orderId: order.order_id,",
  },
  {
    id: "valuation-payload-field-renamed",
    description: "service-valuation-updated detail carries tradeInId instead of tradein_id",
    shopperVisible: true,
    file: "service.ts",
    from: "tradein_id: tradein.id,",
    to: "tradeInId: tradein.id,",
  },
  {
    id: "listeners-not-awaited",
    description: "ready-to-place-order listeners are started but not awaited before paying",
    shopperVisible: true,
    file: "payment.ts",
    from: "await this.runListeners(payload);",
    to: "void this.runListeners(payload);",
  },
  {
    id: "teaser-type-missing",
    description: "the cart-summary teaser type is not rendered",
    shopperVisible: true,
    file: "teasers.ts",
    from: '["banner", "product-widget", "cart-summary", "thank-you"]',
    to: '["banner", "product-widget", "thank-you"]',
  },
  {
    id: "callbacks-without-cookies",
    description: "shopper_data and purchase_data are fetched without the shopper's cookies",
    shopperVisible: true,
    file: "api.ts",
    from: 'credentials: "same-origin",',
    to: 'credentials: "omit",',
    all: true,
  },
  {
    id: "amounts-wrong-unit",
    description: "cents shown as whole currency units (no division by 100)",
    shopperVisible: true,
    file: "format.ts",
    from: ".format(cents / 100)",
    to: ".format(cents)",
  },
  {
    id: "left-to-pay-without-tax",
    description: "the payment modal's amount left to pay leaves the cart's VAT out",
    shopperVisible: true,
    file: "payment.ts",
    from: "format(cart.total - discount)",
    to: "format(cart.total - cart.tax - discount)",
  },
  {
    id: "purchase-data-kept",
    description:
      "purchase_data is fetched once per tab and kept: after a cart change the service and the payment modal see the old cart",
    shopperVisible: true,
    file: "api.ts",
    from: "  return parse<PurchaseData>(response);",
    to: '  const kept = sessionStorage.getItem("service-purchase");\n  if (kept) return JSON.parse(kept) as PurchaseData;\n  const data = await parse<PurchaseData>(response);\n  sessionStorage.setItem("service-purchase", JSON.stringify(data));\n  return data;',
  },
  {
    id: "wrong-mode-selected",
    description: "servicepay-payment-method-selected always reports mode tradein_valid",
    shopperVisible: false,
    file: "service.ts",
    from: '...(details ?? { mode: tradein ? "tradein_valid" : "tradein_missing" }),',
    to: '...details, mode: "tradein_valid",',
  },
  {
    id: "wrong-mode-payment",
    description: "the payment modal lets an unusable trade-in (tradein_invalid) be paid with",
    shopperVisible: false,
    file: "payment.ts",
    from: 'else if (details.mode !== "tradein_valid")',
    to: 'else if (details.mode === "tradein_missing")',
  },
  {
    id: "escape-broken",
    // The modal is a native <dialog>, which closes on Escape by itself; the realistic break is
    // a handler that swallows the key (preventDefault) and forgets to close.
    description: "Escape is swallowed: the wizard and the payment modal stay open",
    shopperVisible: true,
    file: "dialog.ts",
    from: "event.preventDefault();\n      this.close();\n      return;",
    to: "event.preventDefault();\n      return;",
  },
  {
    id: "focus-trap-broken",
    description: "Tab from the last control leaves the modal dialog",
    shopperVisible: true,
    file: "dialog.ts",
    from: "} else if (!event.shiftKey && active === last) {",
    to: "} else if (false) {",
  },
  {
    id: "payment-modal-closed-not-fired",
    description: "closing the payment modal dispatches no service-modal-closed",
    shopperVisible: false,
    file: "payment.ts",
    from: '() => emit("service-modal-closed", { message: "Payment modal closed", modal: "payment" }),',
    to: "() => undefined,",
  },
  {
    id: "pay-twice-on-double-click",
    description:
      "Pay now stays enabled while the payment runs: a double click starts two payments for one cart",
    shopperVisible: true,
    file: "payment.ts",
    from: '      pay.disabled = true;\n      status.textContent = t(locale, "paying");',
    to: '      status.textContent = t(locale, "paying");',
  },
  {
    id: "failed-completion-reported-as-success",
    // "The webhook tells the merchant anyway": the shopper is told "Payment completed" and sent
    // to the confirmation while the service never completed the payment.
    description:
      "a failed or unanswered payment completion is reported as completed, with the redirect",
    shopperVisible: true,
    file: "payment.ts",
    from: "      base satisfies CompletePaymentRequest,\n    );",
    to: '      base satisfies CompletePaymentRequest,\n    ).catch(() => ({ ...order, status: "payment_completed" }));',
  },
  {
    id: "teaser-words-swapped",
    description: "the product page's teaser shows the cart's words and the cart's the product's",
    shopperVisible: true,
    file: "teasers.ts",
    from: 'el("p", {}, t(locale, type)), button);',
    to: 'el("p", {}, t(locale, type === "product-widget" ? "cart-summary" : type === "cart-summary" ? "product-widget" : type)), button);',
  },
  {
    id: "item-totals-without-tax",
    description: "the payment modal's item lines show price × quantity, leaving out the line's tax",
    shopperVisible: true,
    file: "payment.ts",
    from: 'el("td", { class: "num" }, format(item.total)),',
    to: 'el("td", { class: "num" }, format(item.price * item.quantity)),',
  },
  {
    id: "accept-twice-on-double-click",
    description:
      "Accept offer stays enabled while the accept runs: a double click accepts twice, two valuation-updated events",
    shopperVisible: false,
    file: "wizard.ts",
    from: "      accept.disabled = true;\n",
    to: "",
  },
  {
    id: "teasers-watch-body-children-only",
    // A single-page app renders later markers deep inside its layout, never as the body's own
    // children. Not seen on this storefront: Next.js re-renders the page's streamed metadata in a
    // <div hidden> that is a child of the body on every client-side navigation, so even this
    // watcher scans again (the SDK page suite's "teasers added later …" kills it).
    description:
      "the SDK's watcher looks only at the body's own children: teasers rendered later, deeper in the page, are never filled in",
    shopperVisible: false,
    file: "teasers.ts",
    from: "childList: true,\n      subtree: true,",
    to: "childList: true,\n      subtree: false,",
  },
  {
    id: "teasers-watched-once",
    description:
      "the SDK stops watching the page after the first change it sees: teasers of a page reached by a client-side navigation are never filled in",
    shopperVisible: true,
    file: "teasers.ts",
    from: "new MutationObserver(() => this.schedule())",
    to: "new MutationObserver((_, watcher) => {\n      watcher.disconnect();\n      this.schedule();\n    })",
  },
  {
    id: "cart-total-before-discounts",
    description:
      "the payment modal's Cart total shows the cart's price and tax, before the merchant's discounts (a promotion code): its figures no longer add up",
    shopperVisible: true,
    file: "payment.ts",
    from: 'el("dd", { "data-amount": "cart-total" }, format(cart.total)),',
    to: 'el("dd", { "data-amount": "cart-total" }, format(cart.price + cart.tax)),',
  },
  {
    id: "teaser-button-rebuilt",
    // The dialog returns focus to the element that opened it; a teaser that builds a new button
    // on every render leaves that element detached once the accepted offer re-renders it.
    description:
      "each teaser render builds a new button: after accepting an offer the wizard returns focus to a detached button, so keyboard focus falls to the top of the page",
    shopperVisible: true,
    file: "teasers.ts",
    from: "let button = this.buttons.get(host);",
    to: "let button: HTMLButtonElement | undefined;",
  },
];

/** Applies `mutation` to the SDK copy in `dir`; throws when it no longer applies. */
export function applyMutation(dir: string, mutation: Mutation): void {
  const file = path.join(dir, mutation.file);
  const text = readFileSync(file, "utf8");
  const count = text.split(mutation.from).length - 1;
  if (count === 0 || (count > 1 && !mutation.all)) {
    throw new Error(
      `mutant ${mutation.id}: "${mutation.from}" occurs ${count} times in ${mutation.file}`,
    );
  }
  writeFileSync(file, text.split(mutation.from).join(mutation.to));
}
