// The go-live readiness rules: every contract rule a merchant's traffic can break, with an id,
// the contract section it comes from and a plain sentence. Grouped like the service's go-live
// checklist (public-docs-facts: credentials, the three rules behind most failed integrations,
// the three go-live scenarios). "passive" rules are judged from the journal as traffic flows;
// "active" rules by requests the emulator sends to the merchant's webhook URL on demand.

export type RuleGroup =
  | "credentials"
  | "api"
  | "money"
  | "sessions"
  | "checkout"
  | "webhook"
  | "scenarios";

export type RuleId = (typeof RULES)[number]["id"];

export interface Rule {
  id: string;
  group: RuleGroup;
  kind: "passive" | "active";
  /** Where the rule is written in the contract (or the public docs facts). */
  section: string;
  /** What a ready merchant does, in one plain sentence. */
  sentence: string;
}

export const GROUPS: { id: RuleGroup; title: string }[] = [
  { id: "credentials", title: "Credentials and tokens" },
  { id: "api", title: "Calling the service API" },
  { id: "money", title: "Amounts in cents" },
  { id: "sessions", title: "Sessions, trade-ins and the shopper's privacy" },
  { id: "checkout", title: "Checkout page and browser callbacks" },
  { id: "webhook", title: "Order webhook receiver" },
  { id: "scenarios", title: "Go-live test scenarios" },
];

export const RULES = [
  {
    id: "token.basic-auth",
    group: "credentials",
    kind: "passive",
    section: "Endpoints › POST /oauth2/token/",
    sentence:
      "The token request sends the client id and secret in an HTTP Basic header, form-encoded, never in the body.",
  },
  {
    id: "token.reuse",
    group: "credentials",
    kind: "passive",
    section: "Authentication 1 and 4; Limits (access token lifetime)",
    sentence:
      "An access token is kept and reused for its hour; the merchant does not log in again while it still works.",
  },
  {
    id: "token.refresh-used",
    group: "credentials",
    kind: "passive",
    section: "Authentication 1 and 4",
    sentence:
      "An expired access token is renewed with grant_type=refresh_token, not replaced by a new password login.",
  },
  {
    id: "token.refresh-on-401",
    group: "credentials",
    kind: "passive",
    section: "Authentication 4",
    sentence:
      "A 401 from the API is followed by exactly one refresh before the call is retried (a login only if that refresh fails).",
  },
  {
    id: "api.path-form",
    group: "api",
    kind: "passive",
    section: "Endpoints › Service API (trailing slash)",
    sentence:
      "Every path is called in its exact form: with the trailing slash where the contract has one, without it for /register-purchase and /payments/orders/update.",
  },
  {
    id: "api.backoff",
    group: "api",
    kind: "passive",
    section: "Errors › Client guidance; Limits (rate limit)",
    sentence:
      "After a 429 or 503 the merchant waits at least the Retry-After (and at least 1 s) before calling that endpoint again.",
  },
  {
    id: "money.integer-cents",
    group: "money",
    kind: "passive",
    section: "What the service does 5; Limits (monetary values)",
    sentence:
      "Every amount the merchant sends or answers is an integer number of cents, never decimal notation (not even 12.00).",
  },
  {
    id: "money.order-amount",
    group: "money",
    kind: "passive",
    section: "Endpoints › POST /register-purchase",
    sentence:
      "register-purchase's order_amount is what the shopper paid for the order, in cents: at least the cart's total, never reduced by the trade-in.",
  },
  {
    id: "purchase.accepted-tradein",
    group: "sessions",
    kind: "passive",
    section: "Endpoints › POST /register-purchase; States › Trade-in item status",
    sentence:
      "register-purchase is sent only for a session whose trade-in is accepted and unexpired (no trade-in: nothing to register).",
  },
  {
    id: "session.hash-form",
    group: "sessions",
    kind: "passive",
    section: "Resources › Session hash",
    sentence:
      "The session hash is an HMAC-SHA256 in hex: 64 lowercase hex characters (plus |NNN only when echoing a session_id).",
  },
  {
    id: "session.hash-per-shopper",
    group: "sessions",
    kind: "passive",
    section: "Resources › Session hash",
    sentence:
      "A session hash stands for one shopper's session: the same hash never comes with two different customers.",
  },
  {
    id: "privacy.raw-session",
    group: "sessions",
    kind: "passive",
    section: "Authentication 6; Resources › Session hash",
    sentence:
      "The shopper's raw session id and its salt never reach the service, in any path, header or body (checked for the values the merchant declares through the test hook).",
  },
  {
    id: "callback.shopper-data",
    group: "checkout",
    kind: "passive",
    section: "Merchant endpoints; Resources › Shopper data; Errors (shopper_data 404)",
    sentence:
      "shopper_data answers 200 with customer { id, email, given_name, family_name } and session_hash_token for a logged-in shopper, 404 for an anonymous one.",
  },
  {
    id: "callback.purchase-data",
    group: "checkout",
    kind: "passive",
    section: "Merchant endpoints; Resources › Purchase data, Cart",
    sentence:
      "purchase_data answers 200 with { purchase: null } for an empty cart, else a purchase whose cart follows the Cart table and its arithmetic.",
  },
  {
    id: "markup.payment-option",
    group: "checkout",
    kind: "passive",
    section: "Front-end SDK › Payment option markup",
    sentence:
      "The Service Pay option is a radio named payment_method with value service_pay, a data-module-name and the service's icon inside its label.",
  },
  {
    id: "markup.info-extra-hidden",
    group: "checkout",
    kind: "passive",
    section: "Front-end SDK › Payment option markup",
    sentence:
      "The option's info and extra texts start hidden: info only in a tooltip or side panel, extra only once the option is selected.",
  },
  {
    id: "webhook.deliveries",
    group: "webhook",
    kind: "passive",
    section: "Merchant endpoints rule 2; Authentication 5; Events › Webhook",
    sentence:
      "Every genuine, correctly signed notification is answered exactly 200 (not 201 or 204, not 403: that means a wrong signing secret).",
  },
  {
    id: "webhook.unsigned",
    group: "webhook",
    kind: "active",
    section: "Authentication 5; Merchant endpoints rule 2",
    sentence: "A notification without X-Service-Signature is refused with 403.",
  },
  {
    id: "webhook.wrong-secret",
    group: "webhook",
    kind: "active",
    section: "Authentication 5",
    sentence:
      "A notification signed with the client secret (not <user_id>-<merchant_id>) is refused with 403.",
  },
  {
    id: "webhook.reserialised",
    group: "webhook",
    kind: "active",
    section: "Authentication 5",
    sentence:
      "The signature is checked over the raw body bytes: one computed over re-serialised JSON is refused with 403.",
  },
  {
    id: "webhook.valid",
    group: "webhook",
    kind: "active",
    section: "Merchant endpoints rule 2; Events › Webhook",
    sentence: "A correctly signed notification is answered exactly 200.",
  },
  {
    id: "webhook.duplicates",
    group: "webhook",
    kind: "active",
    section: "Events › Webhook (idempotent receiver)",
    sentence: "The same notification sent 10 times at once is answered exactly 200 every time.",
  },
  {
    id: "webhook.out-of-order",
    group: "webhook",
    kind: "active",
    section: "Events › Webhook (retries, early delivery)",
    sentence:
      "An older status arriving after a newer one is accepted with 200 (and must not move the order back).",
  },
  {
    id: "webhook.body-forms",
    group: "webhook",
    kind: "active",
    section: "Resources › Order (one form wraps cart_id and status in data)",
    sentence: "Both body forms, flat and with cart_id and status inside data, are answered 200.",
  },
  {
    id: "webhook.unknown-status",
    group: "webhook",
    kind: "active",
    section: "Resources › Order (complete set of statuses not shown)",
    sentence:
      "A notification with a status the merchant does not know is answered 200 (kept, never a 5xx the service retries for hours).",
  },
  {
    id: "webhook.slow-network",
    group: "webhook",
    kind: "active",
    section: "Events › Webhook (allow more than 30 s)",
    sentence: "A notification whose body arrives slowly over the network is still answered 200.",
  },
  {
    id: "scenario.service-pay",
    group: "scenarios",
    kind: "passive",
    section: "Go-live scenario 1 (public-docs-facts)",
    sentence: "A Service Pay payment completed and its order webhook was answered exactly 200.",
  },
  {
    id: "scenario.other-method",
    group: "scenarios",
    kind: "passive",
    section: "Go-live scenario 2 (public-docs-facts)",
    sentence: "A purchase paid by another method was registered with register-purchase (200).",
  },
] as const satisfies readonly Rule[];

export function ruleById(id: string): Rule | undefined {
  return (RULES as readonly Rule[]).find((rule) => rule.id === id);
}
