import { z } from "zod";
import type { CheckoutFormFields } from "./shop-ports.js";

// In the browser, zod must not compile its parsers with `new Function`: the shop's script policy
// has no 'unsafe-eval', so its probe for that is blocked and reported as a policy violation on
// every page (security.md). The server keeps zod's compiled parsers.
if (typeof window !== "undefined") z.config({ jitless: true });

/**
 * The Service Pay payment option (contract: Resources › Payment option details, States ›
 * Payment option mode, Front-end SDK › Payment option markup). Pure and free of node: imports,
 * so a client component can import it: the SDK's `paymentOptionDetailsFor('ep1')` answer goes
 * in, what the radio must do comes out.
 */

/** Markup constants of the contract's radio input. */
export const PAYMENT_METHOD_INPUT_NAME = "payment_method";
/** The Service Pay radio's value (contract: Front-end SDK › Payment option markup). */
export const SERVICE_PAY_VALUE = "service_pay";

const PAYMENT_OPTION_MODES = [
  "unavailable",
  "tradein_valid",
  "tradein_missing",
  "tradein_invalid",
] as const;
/** The payment option's modes (contract: States › Payment option mode). */
export type PaymentOptionMode = (typeof PAYMENT_OPTION_MODES)[number];

/** template_name values when mode is tradein_invalid. */
const INVALID_TEMPLATES = ["currency", "cart_below_limit", "other_ok"] as const;
/** Why a tradein_invalid option is disabled: currencies differ, the cart is below any trade-in
 *  use, or too small for `ep1` only (contract: Payment option mode). */
export type InvalidTemplate = (typeof INVALID_TEMPLATES)[number];

// Tolerant: the SDK is another party's code. Unknown modes and templates are kept as text (an
// unknown mode is then hidden, below), `data` values may be null, extra keys pass through.
const paymentOptionDetailsSchema = z.looseObject({
  /** unavailable, tradein_valid, tradein_missing or tradein_invalid (an unknown one is hidden). */
  mode: z.string(),
  /** The template for custom rendering; with tradein_invalid an InvalidTemplate ("" if none). */
  template_name: z.string().default(""),
  /** Plain localized text ("" if none). */
  label: z.string().default(""),
  /** Short localized text, may hold br and strong tags ("" if none). */
  info: z.string().default(""),
  /** Optional localized text, the same HTML rules; absent or null when none. */
  extra: z.string().nullish(),
  /** The raw values; absent or null when the SDK sent none. */
  data: z
    .looseObject({
      /** The accepted offer, cents. */
      valuation: z.number().nullish(),
      /** The raw `tradein` value as the SDK sent it (text or number). */
      tradein: z.union([z.string(), z.number()]).nullish(),
      /** The raw `minimum` (cents): the cart amount the option needs, as the SDK sent it. */
      minimum: z.number().nullish(),
      /** The offer's currency code. */
      tradein_currency: z.string().nullish(),
      /** The cart's currency code. */
      cart_currency: z.string().nullish(),
    })
    .nullish(),
});
/** The SDK's `paymentOptionDetailsFor('ep1')` answer as read (contract: Payment option details). */
export type PaymentOptionDetails = z.infer<typeof paymentOptionDetailsSchema>;

/** Reads the SDK's answer; anything unreadable (or no SDK at all) is null, which hides the option. */
export function parsePaymentOptionDetails(value: unknown): PaymentOptionDetails | null {
  const parsed = paymentOptionDetailsSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** What the checkout's Service Pay radio must do, from the payment option details. */
export type PaymentOptionPresentation =
  /** unavailable (or unknown/unreadable): "option is not shown". */
  | {
      /** Not shown. */
      kind: "hidden";
    }
  | {
      /** Shown and selectable (tradein_valid, tradein_missing). */
      kind: "selectable";
      /** The option's label (plain text). */
      label: string;
      /** For a tooltip or side panel; hidden at first. Sanitized HTML. */
      infoHtml: string;
      /** Shown inline when the option is selected. Sanitized HTML, may be empty. */
      extraHtml: string;
      /** tradein_missing: "selecting it opens the valuation wizard" (SDK openValuation()). */
      opensValuationOnSelect: boolean;
    }
  | {
      /** Shown disabled, with an explanation (tradein_invalid). */
      kind: "disabled";
      /** The option's label (plain text). */
      label: string;
      /** "shown disabled with explanation": the service's info, or our words when it is empty. */
      explanationHtml: string;
      /** The service's extra text, sanitized HTML, may be empty (also in the explanation). */
      extraHtml: string;
      /** Why it is disabled: the template_name, or "other" for one the contract does not name. */
      template: InvalidTemplate | "other";
    };

/** Our explanation when the SDK sends none, per disabled sub-state (contract: Payment option mode). */
const INVALID_TEMPLATE_EXPLANATIONS: Record<InvalidTemplate | "other", string> = {
  currency: "Your trade-in offer and your cart are in different currencies.",
  cart_below_limit: "Your cart total is too low to use your trade-in.",
  other_ok:
    "Your cart total is too low for this payment option. Your trade-in still applies if you pay another way.",
  other: "Your trade-in cannot be used with this order.",
};

/** The radio's presentation for these details (contract: Payment option mode's required
 *  behaviour); no details: hidden. The service's HTML is sanitized (br and strong kept). */
export function presentPaymentOption(
  details: PaymentOptionDetails | null | undefined,
): PaymentOptionPresentation {
  if (!details) return { kind: "hidden" };
  const label = details.label;
  const infoHtml = sanitizeServiceHtml(details.info);
  const extraHtml = sanitizeServiceHtml(details.extra ?? "");
  switch (details.mode) {
    case "tradein_valid":
    case "tradein_missing":
      return {
        kind: "selectable",
        label,
        infoHtml,
        extraHtml,
        opensValuationOnSelect: details.mode === "tradein_missing",
      };
    case "tradein_invalid": {
      const template = (INVALID_TEMPLATES as readonly string[]).includes(details.template_name)
        ? (details.template_name as InvalidTemplate)
        : "other";
      return {
        kind: "disabled",
        label,
        // A disabled option is never selected, so `extra` (shown inline once selected) would
        // never be read: with other_ok it is the point ("you still get … with another method"),
        // so the explanation is info, then extra (contract: "option shown disabled with
        // explanation").
        explanationHtml: [
          infoHtml || escapeHtml(INVALID_TEMPLATE_EXPLANATIONS[template]),
          extraHtml,
        ]
          .filter(Boolean)
          .join("<br>"),
        extraHtml,
        template,
      };
    }
    default:
      // "unavailable", and any mode this code does not know: showing an option whose rules we
      // cannot follow would be worse than not offering it.
      return { kind: "hidden" };
  }
}

/**
 * After `service-valuation-updated` the details are fetched again and the option is selected
 * "only if mode is tradein_valid" (contract: Payment option mode, tradein_missing row).
 */
export function staysSelectedAfterValuationUpdate(
  wasSelected: boolean,
  refreshed: PaymentOptionDetails | null | undefined,
): boolean {
  return wasSelected && refreshed?.mode === "tradein_valid";
}

/** What `updatePaymentSelected` is called with when a payment_method radio changes
 *  (public-docs-facts: Service Pay option). */
export function isServicePaySelected(paymentMethodValue: string | null | undefined): boolean {
  return paymentMethodValue === SERVICE_PAY_VALUE;
}

const ENTITY = /^&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/i;
const ALLOWED_TAG = /^<(\/?)(br|strong)\s*(\/?)>/i;

/**
 * `info` and `extra` "may contain simple HTML tags (br, strong)". Only `<br>` and
 * `<strong>…</strong>` without attributes survive; every other `<`, `>`, `&`, quote is escaped,
 * so the text is safe for innerHTML / dangerouslySetInnerHTML. Character entities pass as they
 * are (they cannot form tags). Unclosed `<strong>` is closed at the end; a stray `</strong>` is
 * dropped.
 */
export function sanitizeServiceHtml(input: string): string {
  let out = "";
  let openStrong = 0;
  let i = 0;
  while (i < input.length) {
    const rest = input.slice(i);
    const tag = ALLOWED_TAG.exec(rest);
    if (tag) {
      const [whole, closing, nameRaw, selfClosing] = tag;
      const name = (nameRaw ?? "").toLowerCase();
      if (name === "br" && !closing) out += "<br>";
      else if (name === "strong" && !closing && !selfClosing) {
        out += "<strong>";
        openStrong++;
      } else if (name === "strong" && closing && !selfClosing) {
        if (openStrong > 0) {
          out += "</strong>";
          openStrong--;
        }
      } else {
        out += escapeHtml(whole);
      }
      i += whole.length;
      continue;
    }
    const entity = ENTITY.exec(rest);
    if (entity) {
      out += entity[0];
      i += entity[0].length;
      continue;
    }
    out += escapeHtml(input.charAt(i));
    i++;
  }
  return out + "</strong>".repeat(openStrong);
}

/** `text` with &, <, >, " and ' escaped, safe inside HTML. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** The checkout's details as the kit's checkout and pending-order handlers take them. */
export interface CheckoutDetailsBody {
  /** The shopper's e-mail. */
  email: string;
  /** The billing Address's fields by their contract names (given_name, city, …). */
  billing: Record<string, string>;
  /** Absent: deliver to the billing address. */
  shipping?: Record<string, string>;
  /** The chosen delivery method's id. */
  shipping_method: string;
}

/**
 * Reads the checkout's details from the host's form by the host's field names (`fields`, the
 * adapter's CheckoutFormFields) into the body the handlers take, in the contract's words. A
 * missing input reads as "": the handler's validation names it.
 */
export function checkoutDetailsFromForm(
  data: Pick<FormData, "get">,
  fields: CheckoutFormFields,
): CheckoutDetailsBody {
  const text = (name: string) => {
    const value = data.get(name);
    return typeof value === "string" ? value : "";
  };
  const address = (names: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(names).map(([field, name]) => [field, text(name)]));
  return {
    email: text(fields.email),
    billing: address(fields.billing),
    ...(data.get(fields.shippingSame) !== null ? {} : { shipping: address(fields.shipping) }),
    shipping_method: text(fields.shippingMethod),
  };
}
