// Passive readiness checks: each rule judged from the journal (the merchant's requests, what the
// SDK observed of its page and callbacks, and the webhook attempts), never from the merchant's
// code. Pure: the journal entries and a few facts about the merchant in, findings out.
import { checkCart, decodeCart } from "../http/cart";
import { endpointFor, wrongSlashFor } from "../http/endpoints";
import type { JournalEntry } from "../journal";
import { evidenceOf, type Finding } from "./findings";
import type { RuleId } from "./rules";

/** What the SDK reports of the merchant's page (POST /sdk/v1/observations). */
export const OBSERVATIONS_PATH = "/sdk/v1/observations";

export interface PassiveInput {
  merchantId: string;
  /** The current stretch of the journal, raw (not redacted), oldest first. */
  entries: readonly JournalEntry[];
  epoch: number;
  /** Journal entry → merchant id, or undefined when it cannot be told. */
  merchantOf(entry: JournalEntry): string | undefined;
  /** The merchant's webhook URL prefix. */
  webhookBase: string;
  /** Raw session ids and salts the merchant declared through the test hook. */
  declared: readonly string[];
  /** Notifications of the merchant: their final state in the dispatcher. */
  notifications: readonly { order_id: string; status: string }[];
}

export type PassiveFindings = Partial<Record<RuleId, Finding>>;

const HASH = /^[0-9a-f]{64}$/;
const ENOUGH_NEEDLESS_LOGINS = 3;

// ---- reading entries ----

export function jsonOf(text: unknown): unknown {
  if (typeof text !== "string") return text ?? undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function formOf(text: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof text !== "string") return out;
  for (const [k, v] of new URLSearchParams(text)) out[k] = v;
  return out;
}

function obj(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export function bearerOf(entry: JournalEntry): string | undefined {
  const header = entry.request_headers?.authorization;
  return header ? /^Bearer\s+(\S+)/i.exec(header)?.[1] : undefined;
}

const isToken = (e: JournalEntry) => e.kind === "request" && e.path === "/oauth2/token/";
const isApi = (e: JournalEntry) =>
  e.kind === "request" && endpointFor(e.path) !== undefined && !isToken(e);
const grantOf = (e: JournalEntry) => formOf(e.request_body).grant_type;

/** Number literals written with a decimal point or an exponent, outside strings. */
export function decimalLiterals(json: string): string[] {
  const found: string[] = [];
  for (const match of json.matchAll(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)) {
    const token = match[0];
    if (!token.startsWith('"') && /[.eE]/.test(token)) found.push(token);
  }
  return found;
}

/** The texts a request carries that the merchant wrote (body, Base64 cart, observed callbacks). */
function merchantTexts(entry: JournalEntry): string[] {
  const texts: string[] = [];
  const body = typeof entry.request_body === "string" ? entry.request_body : undefined;
  if (!body) return texts;
  if (entry.path === OBSERVATIONS_PATH) {
    const observed = obj(jsonOf(body));
    if (typeof observed?.body_text === "string") texts.push(observed.body_text);
    return texts;
  }
  texts.push(body);
  const cart = obj(jsonOf(body))?.cart;
  if (typeof cart === "string") {
    try {
      texts.push(Buffer.from(cart, "base64").toString("utf8"));
    } catch {}
  }
  return texts;
}

function stripVersion(value: string): string {
  return value.split("|")[0] ?? value;
}

// ---- the rules ----

export function evaluatePassive(input: PassiveInput): PassiveFindings {
  const { merchantId, epoch } = input;
  // A refused observation (no token from the emulator's own SDK start-up, another origin, a
  // replay: observation-sessions.ts) is journaled for the record but is no evidence of anything.
  const entries = input.entries.filter(
    (e) => e.kind !== "request" || e.path !== OBSERVATIONS_PATH || e.status === 204,
  );
  const mine = entries.filter((e) => input.merchantOf(e) === merchantId);
  const requests = mine.filter((e) => e.kind === "request");
  const out: PassiveFindings = {};
  const verdict = (
    fails: JournalEntry[],
    passes: JournalEntry[],
    failNote: string,
    passNote: string,
  ): Finding | undefined => {
    if (fails.length > 0) {
      return { verdict: "fail", note: failNote, evidence: evidenceOf(fails, epoch) };
    }
    if (passes.length > 0) {
      return { verdict: "pass", note: passNote, evidence: evidenceOf(passes, epoch) };
    }
    return undefined;
  };
  const set = (id: RuleId, finding: Finding | undefined) => {
    if (finding) out[id] = finding;
  };

  // ---- credentials ----
  const tokenRequests = requests.filter(isToken);
  set(
    "token.basic-auth",
    verdict(
      tokenRequests.filter((e) => {
        const form = formOf(e.request_body);
        const basic = /^Basic\s/i.test(e.request_headers?.authorization ?? "");
        return !basic || "client_secret" in form;
      }),
      tokenRequests,
      "A token request carried the client credentials in the body or without an HTTP Basic header.",
      "Token requests authenticate the client with HTTP Basic.",
    ),
  );

  type Issued = { token: string; at: number; expires: number; refused: boolean };
  const issued: Issued[] = [];
  const needless: JournalEntry[] = [];
  const loginAfterExpiry: JournalEntry[] = [];
  const refreshes = tokenRequests.filter((e) => grantOf(e) === "refresh_token");
  for (const e of mine) {
    if (isToken(e) && e.status === 200) {
      const body = obj(e.response_body);
      const token = typeof body?.access_token === "string" ? body.access_token : undefined;
      const lifetime = typeof body?.expires_in === "number" ? body.expires_in * 1000 : 3_600_000;
      if (grantOf(e) === "password") {
        const stillGood = issued.some((t) => !t.refused && t.expires > e.at);
        if (stillGood) needless.push(e);
        const last = issued[issued.length - 1];
        if (
          last &&
          !last.refused &&
          last.expires <= e.at &&
          !refreshes.some((r) => r.at >= last.at && r.seq < e.seq)
        ) {
          loginAfterExpiry.push(e);
        }
      }
      if (token) issued.push({ token, at: e.at, expires: e.at + lifetime, refused: false });
    } else if (isApi(e) && e.status === 401) {
      const token = bearerOf(e);
      for (const t of issued) if (t.token === token) t.refused = true;
    }
  }
  const passwordGrants = tokenRequests.filter((e) => grantOf(e) === "password" && e.status === 200);
  set(
    "token.reuse",
    needless.length >= ENOUGH_NEEDLESS_LOGINS
      ? {
          verdict: "fail",
          note: `${needless.length} password logins were made while an earlier access token still worked.`,
          evidence: evidenceOf(needless, epoch),
        }
      : verdict(
          [],
          passwordGrants,
          "",
          "Access tokens are reused until they expire or are refused.",
        ),
  );
  set(
    "token.refresh-used",
    verdict(
      loginAfterExpiry,
      refreshes,
      "After the access token expired the merchant logged in again with the password instead of refreshing.",
      "The refresh grant is used to renew access tokens.",
    ),
  );

  // A 401 opens a window that the next successful API call closes; exactly one refresh inside.
  const badWindows: JournalEntry[] = [];
  const goodWindows: JournalEntry[] = [];
  let windowStart: JournalEntry | undefined;
  let refreshCount = 0;
  let loggedIn = false;
  let latestToken: string | undefined;
  for (const e of mine) {
    if (isToken(e)) {
      if (grantOf(e) === "refresh_token" && windowStart) refreshCount += 1;
      if (grantOf(e) === "password" && windowStart) loggedIn = true;
      const token = obj(e.response_body)?.access_token;
      if (e.status === 200 && typeof token === "string") latestToken = token;
      continue;
    }
    if (!isApi(e)) continue;
    if (e.status === 401 && bearerOf(e) !== undefined) {
      // A call still in flight with a token already replaced needs no refresh of its own.
      if (!windowStart && latestToken !== undefined && bearerOf(e) !== latestToken) continue;
      windowStart ??= e;
      continue;
    }
    if (windowStart && e.status !== 401) {
      if (refreshCount === 1) goodWindows.push(windowStart);
      else if (refreshCount > 1 || loggedIn || e.status < 400) badWindows.push(windowStart);
      windowStart = undefined;
      refreshCount = 0;
      loggedIn = false;
    }
  }
  set(
    "token.refresh-on-401",
    verdict(
      badWindows,
      goodWindows,
      "A 401 was not followed by exactly one refresh before the call was retried.",
      "Each 401 was followed by one refresh, then the call again.",
    ),
  );

  // ---- api ----
  set(
    "api.path-form",
    verdict(
      requests.filter((e) => e.status === 404 && wrongSlashFor(e.path) !== undefined),
      requests.filter((e) => endpointFor(e.path) !== undefined),
      "A service path was called without (or with) the trailing slash the contract prescribes.",
      "Every service path was called in its exact form.",
    ),
  );

  const refusedEarly: JournalEntry[] = [];
  const waited: JournalEntry[] = [];
  const apiLike = requests.filter((e) => endpointFor(e.path) !== undefined);
  for (const [i, e] of apiLike.entries()) {
    if (e.status !== 429 && e.status !== 503) continue;
    const again = apiLike
      .slice(i + 1)
      .find(
        (n) =>
          n.method === e.method &&
          n.path === e.path &&
          (n.query ?? "") === (e.query ?? "") &&
          n.request_body === e.request_body,
      );
    if (!again) continue;
    const retryAfter = Number(e.response_headers?.["retry-after"]);
    const wanted = Math.max(1000, Number.isFinite(retryAfter) ? retryAfter * 1000 : 0);
    // 50 ms of slack for the two clock reads around one request.
    if (again.at - e.at + 50 < wanted) refusedEarly.push(e, again);
    else waited.push(e, again);
  }
  set(
    "api.backoff",
    verdict(
      refusedEarly,
      waited,
      "A request refused with 429/503 was sent again before its Retry-After (or within 1 s).",
      "Requests refused with 429/503 were retried only after the delay asked for.",
    ),
  );

  // ---- money ----
  const writes = requests.filter(
    (e) => typeof e.request_body === "string" && e.method !== "GET" && !isToken(e),
  );
  set(
    "money.integer-cents",
    verdict(
      writes.filter((e) => merchantTexts(e).some((t) => decimalLiterals(t).length > 0)),
      writes,
      "An amount was written in decimal notation (for example 12.00) instead of integer cents.",
      "Every amount seen is an integer number of cents.",
    ),
  );

  const purchases = requests.filter((e) => e.path === "/register-purchase");
  const amountTooLow: JournalEntry[] = [];
  const amountOk: JournalEntry[] = [];
  for (const e of purchases) {
    const body = obj(jsonOf(e.request_body));
    const decoded = typeof body?.cart === "string" ? decodeCart(body.cart) : undefined;
    const amount = body?.order_amount;
    if (!decoded?.ok || typeof amount !== "number") continue;
    (amount < decoded.cart.total ? amountTooLow : amountOk).push(e);
  }
  set(
    "money.order-amount",
    verdict(
      amountTooLow,
      amountOk,
      "register-purchase's order_amount was below the cart's total (the trade-in subtracted, or not in cents).",
      "order_amount was never below the cart's total.",
    ),
  );

  // ---- sessions ----
  const TRADE_IN_PROBLEM = /no trade-in|not accepted|already used|expired/i;
  set(
    "purchase.accepted-tradein",
    verdict(
      purchases.filter(
        (e) =>
          e.status === 410 ||
          (e.status === 400 &&
            TRADE_IN_PROBLEM.test(String(obj(e.response_body)?.error_description ?? ""))),
      ),
      purchases.filter((e) => e.status === 200),
      "register-purchase was sent for a session without an accepted, unexpired trade-in.",
      "register-purchase was sent only for accepted, unexpired trade-ins.",
    ),
  );

  const hashes: { entry: JournalEntry; hash: string; customer?: string }[] = [];
  // A session_id the service itself returned is re-queried as returned (public docs; the
  // `session_id_form: "uuid"` setting returns opaque ids): not a hash the merchant computed.
  const returnedIds = new Set<string>();
  for (const e of requests) {
    const returned = obj(e.response_body)?.session_id;
    if (typeof returned === "string") returnedIds.add(returned);
  }
  for (const e of requests) {
    const session = /^\/core\/sessions\/([^/]+)\/$/.exec(e.path)?.[1];
    if (session) {
      const queried = decodeURIComponent(session);
      if (!returnedIds.has(queried) || HASH.test(stripVersion(queried))) {
        hashes.push({ entry: e, hash: stripVersion(queried) });
      }
      continue;
    }
    const body = obj(jsonOf(e.request_body));
    if (!body) continue;
    if (e.path === OBSERVATIONS_PATH) {
      const observed = obj(jsonOf(body.body_text));
      const token = observed?.session_hash_token;
      const customer = obj(observed?.customer)?.id;
      if (body.callback === "shopper_data" && typeof token === "string") {
        hashes.push({
          entry: e,
          hash: token,
          ...(customer !== undefined ? { customer: String(customer) } : {}),
        });
      }
      continue;
    }
    if (typeof body.session_hash === "string") {
      const customer = e.path === "/register-purchase" ? body.customer_id : obj(body.customer)?.id;
      hashes.push({
        entry: e,
        hash: stripVersion(body.session_hash),
        ...(typeof customer === "string" ? { customer } : {}),
      });
    }
  }
  set(
    "session.hash-form",
    verdict(
      hashes.filter((h) => !HASH.test(h.hash)).map((h) => h.entry),
      hashes.map((h) => h.entry),
      "A session hash was not 64 lowercase hex characters (HMAC-SHA256 in hex).",
      "Every session hash was 64 lowercase hex characters.",
    ),
  );
  const customersByHash = new Map<string, { customer: string; entry: JournalEntry }[]>();
  for (const h of hashes) {
    if (!h.customer) continue;
    const list = customersByHash.get(h.hash) ?? [];
    list.push({ customer: h.customer, entry: h.entry });
    customersByHash.set(h.hash, list);
  }
  const shared: JournalEntry[] = [];
  const single: JournalEntry[] = [];
  for (const list of customersByHash.values()) {
    const customers = new Set(list.map((l) => l.customer));
    (customers.size > 1 ? shared : single).push(...list.map((l) => l.entry));
  }
  set(
    "session.hash-per-shopper",
    verdict(
      shared,
      single,
      "One session hash came with two different customers.",
      "Each session hash came with one customer only.",
    ),
  );

  const secrets = input.declared.filter((s) => s.length >= 8);
  if (secrets.length > 0) {
    // Anywhere: every request of anyone, path, query, headers and body (and the Base64 cart).
    const leaks = entries.filter((e) => {
      if (e.kind !== "request") return false;
      const texts = [
        e.path,
        e.query ?? "",
        ...Object.values(e.request_headers ?? {}),
        ...merchantTexts(e),
        typeof e.request_body === "string" ? e.request_body : "",
      ].map((t) => {
        try {
          return decodeURIComponent(t);
        } catch {
          return t;
        }
      });
      return secrets.some((s) => texts.some((t) => t.includes(s)));
    });
    set(
      "privacy.raw-session",
      verdict(
        leaks,
        requests,
        "A declared raw session id or salt was sent to the service.",
        "The declared raw session ids and salts were never sent to the service.",
      ),
    );
  }

  // ---- checkout page and callbacks (reported by the SDK) ----
  const observed = requests
    .filter((e) => e.path === OBSERVATIONS_PATH)
    .map((e) => ({ entry: e, body: obj(jsonOf(e.request_body)) ?? {} }));
  const callbacks = (name: string) =>
    observed.filter((o) => o.body.kind === "callback" && o.body.callback === name);
  /** Observations judged by a shape check: the first problem found is the note. */
  const byShape = (
    items: typeof observed,
    problemOf: (body: Record<string, unknown>) => string | undefined,
    failPrefix: string,
    passNote: string,
  ) => {
    const problems = items.map((o) => ({ ...o, problem: problemOf(o.body) }));
    const failing = problems.filter((o) => o.problem !== undefined);
    return verdict(
      failing.map((o) => o.entry),
      items.map((o) => o.entry),
      `${failPrefix}: ${failing[0]?.problem ?? ""}`,
      passNote,
    );
  };
  set(
    "callback.shopper-data",
    byShape(
      callbacks("shopper_data"),
      shopperDataProblem,
      "shopper_data answered outside the contract",
      "shopper_data answered in the contract's shape (200 with the customer, or 404).",
    ),
  );
  set(
    "callback.purchase-data",
    byShape(
      callbacks("purchase_data"),
      purchaseDataProblem,
      "purchase_data answered outside the contract",
      "purchase_data answered in the contract's shape, amounts in cents.",
    ),
  );
  const markup = observed.filter((o) => o.body.kind === "payment_option_markup");
  set(
    "markup.payment-option",
    byShape(
      markup,
      markupProblem,
      "The payment option's markup",
      "The Service Pay radio has the contract's name, value, data-module-name and icon.",
    ),
  );
  set(
    "markup.info-extra-hidden",
    verdict(
      markup
        .filter((o) => o.body.info_visible === true || o.body.extra_visible_unselected === true)
        .map((o) => o.entry),
      markup.filter((o) => o.body.found === true).map((o) => o.entry),
      `The option's info or extra text was visible before the shopper selected Service Pay${markup.map((o) => o.body.visible_in).find(Boolean) ? ` (in ${markup.map((o) => o.body.visible_in).find(Boolean)})` : ""}.`,
      "info and extra were hidden until the option was selected.",
    ),
  );

  // ---- webhook deliveries (genuine notifications the service sent) ----
  const deliveries = entries.filter(
    (e) =>
      e.kind === "webhook" &&
      e.path.startsWith(input.webhookBase) &&
      e.meta?.kind !== "wrong_signature" &&
      e.meta?.kind !== "readiness",
  );
  set(
    "webhook.deliveries",
    verdict(
      // A 5xx or no answer asks for the retry the protocol provides; whether the retries ever
      // succeeded is scenario.service-pay's question.
      deliveries.filter((e) => e.status !== 200 && e.status >= 200 && e.status < 500),
      deliveries.filter((e) => e.status === 200),
      "A genuine, correctly signed notification was not answered 200 (403 means a wrong signing secret; 201/204 do not count).",
      "Every genuine notification was answered exactly 200.",
    ),
  );

  // ---- go-live scenarios ----
  const completed = requests.filter(
    (e) => /^\/sdk\/v1\/payments\/[^/]+\/complete$/.test(e.path) && e.status === 200,
  );
  const failedNotifications = input.notifications.filter((n) => n.status === "failed");
  set(
    "scenario.service-pay",
    failedNotifications.length > 0
      ? {
          verdict: "fail",
          note: `The webhook of order ${failedNotifications[0]?.order_id} was never answered 200; the service gave up.`,
          evidence: evidenceOf(
            deliveries.filter((e) => e.meta?.order_id === failedNotifications[0]?.order_id),
            epoch,
          ),
        }
      : verdict(
          [],
          deliveries.filter(
            (e) =>
              e.status === 200 &&
              completed.some((c) => c.path.includes(`/${String(e.meta?.order_id)}/`)),
          ),
          "",
          "A Service Pay payment completed and its webhook was answered 200.",
        ),
  );
  set(
    "scenario.other-method",
    purchases.some((e) => e.status === 200)
      ? {
          verdict: "pass",
          note: "register-purchase accepted a purchase paid by another method.",
          evidence: evidenceOf(
            purchases.filter((e) => e.status === 200),
            epoch,
          ),
        }
      : undefined,
  );
  return out;
}

// ---- callback and markup shapes ----

function shopperDataProblem(observed: Record<string, unknown>): string | undefined {
  const status = observed.status;
  if (status === 404) return undefined;
  if (status !== 200) return `status ${String(status)} (200 when logged in, 404 when anonymous).`;
  if (!String(observed.content_type ?? "").includes("json")) return "not JSON.";
  const body = obj(jsonOf(observed.body_text));
  const customer = obj(body?.customer);
  if (!customer) return "no customer object.";
  for (const key of ["id", "email", "given_name", "family_name"]) {
    if (typeof customer[key] !== "string") return `customer.${key} is not a string.`;
  }
  if (typeof body?.session_hash_token !== "string") return "no session_hash_token.";
  return undefined;
}

const ADDRESS_FIELDS = [
  "given_name",
  "family_name",
  "phone",
  "address",
  "city",
  "state",
  "country_code",
  "postal_code",
];

function addressProblem(value: unknown, where: string): string | undefined {
  const address = obj(value);
  if (!address) return `${where} is not an Address.`;
  for (const key of ADDRESS_FIELDS) {
    if (typeof address[key] !== "string") return `${where}.${key} is not a string.`;
  }
  return undefined;
}

function purchaseDataProblem(observed: Record<string, unknown>): string | undefined {
  if (observed.status !== 200) {
    return `status ${String(observed.status)} (an empty cart is 200 { "purchase": null }).`;
  }
  if (!String(observed.content_type ?? "").includes("json")) return "not JSON.";
  const text = typeof observed.body_text === "string" ? observed.body_text : "";
  const body = obj(jsonOf(text));
  if (!body || !("purchase" in body)) return "no purchase key.";
  if (body.purchase === null) return undefined;
  const purchase = obj(body.purchase);
  if (!purchase) return "purchase is neither null nor an object.";
  const decimals = decimalLiterals(text);
  if (decimals.length > 0) return `amounts in decimal notation (${decimals[0]}).`;
  const cart = checkCart(purchase.cart);
  if (!cart.ok) return cart.description;
  const shipping = obj(purchase.shipping);
  return (
    addressProblem(purchase.billing, "billing") ??
    (shipping ? addressProblem(shipping.address, "shipping.address") : "no shipping object.") ??
    (shipping && !obj(shipping.method) ? "shipping.method is not an object." : undefined) ??
    (typeof obj(purchase.customer)?.id === "string" ? undefined : "customer.id is missing.")
  );
}

function markupProblem(observed: Record<string, unknown>): string | undefined {
  if (observed.found !== true) return "no Service Pay radio in the page.";
  if (observed.name !== "payment_method") return `the radio's name is ${String(observed.name)}.`;
  if (observed.value !== "service_pay") return `the radio's value is ${String(observed.value)}.`;
  if (typeof observed.module_name !== "string" || observed.module_name === "") {
    return "the radio has no data-module-name.";
  }
  if (observed.has_icon !== true) return "no icon inside the option.";
  return undefined;
}
