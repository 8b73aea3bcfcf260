import "server-only";
import { type WaitAtMostOptions, waitAtMost } from "./after-response.js";
import { type Cart, cartOfLines } from "./cart.js";
import type { ServiceClient } from "./client.js";
import { recordStep, withInspectorSession } from "./integration-log.js";
import {
  classifyRegisterPurchaseFailure,
  encodeCart,
  NOT_APPLIED_MESSAGES,
  type NotAppliedReason,
  type RetryReason,
  registerPurchaseWithTradeIn,
} from "./register-purchase.js";
import { sessionHash } from "./session-hash.js";
import { checkSessionTradeIn, lookupSession } from "./session-lookup.js";
import type {
  ShopperIdentity,
  TradeInRegistration,
  TradeInRegistrationStore,
} from "./shop-ports.js";
import { checkTradeIn, tradeInProblemFromError } from "./trade-in.js";

// Go-live scenario 2 (public-docs-facts; contract: What the service does 4, POST
// /register-purchase): the shopper paid by card, so the shop registers the purchase and the
// service pays the trade-in back. The step never undoes the order. Every card order gets one
// TradeInRegistration row, written BEFORE any call, so a crash, a 429 or a 503 cannot lose it;
// the row is unique per order and claimed before each attempt, so it is never sent twice at once.

/** The service calls the card trade-in makes: the session lookup and register-purchase. */
export type TradeInClient = Pick<
  ServiceClient,
  "getSession" | "getTradeInItem" | "registerPurchase"
>;

/** What the card trade-in and its retry job need (connectService's `tradeIns`). */
export interface TradeInDeps {
  /** The registrations' store (the adapter's `tradeIns`). */
  store: TradeInRegistrationStore;
  /** The service client. */
  client: TradeInClient;
  /** The clock. */
  now: () => Date;
}

/** A registration's status: queued, registered, not_applied, no_trade_in. */
export type RegistrationStatus = TradeInRegistration["status"];

/** What became of a card order's trade-in. */
export interface TradeInResult {
  /** The registration's status after the attempt. */
  status: RegistrationStatus;
  /** Shopper-facing words when the trade-in was not applied. */
  message?: string;
}

/** After an attempt found the service unreachable, card checkouts skip the call this long. */
const UNREACHABLE_MEMORY_MS = 30_000;

/** A claimed attempt holds the row this long, so a crash mid-call is retried, not lost. */
const CLAIM_LEASE_MS = 2 * 60_000;

/** Retry schedule of a queued registration: 2 s doubling (contract, Errors: exponential backoff), at most 10 min apart, never giving
 *  up (an operator sees the attempts in the back office). */
export function retryDelayMs(attempts: number): number {
  return Math.min(2_000 * 2 ** Math.max(0, attempts - 1), 10 * 60_000);
}

/**
 * `order_amount` is what the shopper paid for the order, delivery included (the order total);
 * the Cart inside carries the delivery as a line, so its `total` is the same amount
 * (docs/decisions/delivery-in-the-cart.md).
 */
function orderAmountOf(order: { total: number }): number {
  return order.total;
}

/** After a successful card payment: record the registration, then make the first attempt. The
 *  shopper is the one who paid (the host's SessionIdentity, shop-ports.ts): their session hash is
 *  what the service keyed the trade-in by. */
export async function applyTradeInAfterCardPayment(
  deps: TradeInDeps,
  params: { orderId: string; shopper: ShopperIdentity },
): Promise<TradeInResult> {
  const order = await deps.store.order(params.orderId);
  if (!order) throw new Error(`order ${params.orderId} not found`);
  const existing = await deps.store.find(order.id);
  if (existing) return resultOf(existing.status, order.tradeInMessage);
  const created = await deps.store.create({
    orderId: order.id,
    sessionHash: sessionHash(params.shopper.sessionId, params.shopper.salt),
    cart: encodeCart(cartOfLines({ ...order, id: order.cartId })),
    orderAmount: orderAmountOf(order),
    customerId: order.customerId,
    status: "queued",
    // A new row: the session check still to pass, no attempt yet (shop-ports.ts, create).
    precheck: true,
    attempts: 0,
    unreachable: false,
    nextAttemptAt: deps.now(),
  });
  if (!created) {
    // The same order submitted twice at once: the other request owns the row and its attempt
    // (a second attempt now could send register-purchase twice); this one reports the row.
    const owned = await deps.store.find(order.id);
    return resultOf(owned?.status ?? "queued", order.tradeInMessage);
  }
  // The service did not answer a moment ago: the shopper does not wait for it again. The row
  // stays queued and the retry job makes the attempt in the background.
  const since = new Date(deps.now().getTime() - UNREACHABLE_MEMORY_MS);
  if (await deps.store.unreachableSince(since)) return { status: "queued" };
  // The row was just written with no attempt: claimed only if no retry job took it meanwhile.
  return processRegistration(deps, order.id, 0);
}

/** How long the shopper waits for the trade-in step by default (cardCheckoutTradeInStep). */
export const CARD_TRADE_IN_WAIT_MS = 8_000;

/** cardCheckoutTradeInStep's options: how long the shopper waits, where the rest runs, the log. */
export interface CardTradeInStepOptions extends Partial<WaitAtMostOptions> {
  /** Where a failed step is told (default console.error); the paid order stands either way. */
  log?: (message: string, error: unknown) => void;
}

/**
 * The card checkout's trade-in step as the shopper's request runs it (go-live scenario 2):
 * applyTradeInAfterCardPayment, in the shopper's inspector session, waited for at most `waitMs`
 * (default 8 s). A slower service does not hold the shopper: the rest is handed to `waitUntil`
 * (default Next's `after()`, after-response.ts), so the attempt keeps its claim and records its
 * outcome on the row and the order even on a host that freezes the function after the
 * response. The confirmation page reads that outcome from the order.
 *
 * Never throws: a failure is logged and the paid order stands; the registration row written
 * before any call stays queued for the retry job (retryDueRegistrations). Its result when the
 * step finished in time, null when it was handed over or failed.
 */
export async function cardCheckoutTradeInStep(
  deps: TradeInDeps,
  params: { orderId: string; shopper: ShopperIdentity },
  options: CardTradeInStepOptions = {},
): Promise<TradeInResult | null> {
  const log = options.log ?? ((message: string, error: unknown) => console.error(message, error));
  const attempt = withInspectorSession(params.shopper.sessionId, () =>
    applyTradeInAfterCardPayment(deps, params),
  ).catch((error: unknown) => {
    log("[checkout] trade-in registration failed", error);
    return null;
  });
  const waited = await waitAtMost(attempt, {
    ...options,
    waitMs: options.waitMs ?? CARD_TRADE_IN_WAIT_MS,
  });
  return waited.done ? waited.value : null;
}

/**
 * One attempt for one order's row: claim it (compare-and-set on `attempts`), check the session
 * unless that already passed, send, and record the outcome on the row and the order.
 * `expectedAttempts`: the row's attempts when the caller took it (its insert, or the retry job's
 * lease); if another runner claimed an attempt since, this one makes none.
 */
export async function processRegistration(
  deps: TradeInDeps,
  orderId: string,
  expectedAttempts?: number,
): Promise<TradeInResult> {
  const row = await deps.store.find(orderId);
  if (!row) throw new Error(`no trade-in registration for order ${orderId}`);
  if (row.status !== "queued") {
    return resultOf(row.status, (await deps.store.order(orderId))?.tradeInMessage);
  }
  if (expectedAttempts !== undefined && row.attempts !== expectedAttempts) {
    return { status: "queued" };
  }
  const now = deps.now();
  if (!(await deps.store.claim(row, new Date(now.getTime() + CLAIM_LEASE_MS)))) {
    return { status: "queued" };
  }
  const attempts = row.attempts + 1;

  let precheck = row.precheck;
  let outcome: Outcome;
  try {
    if (precheck) {
      const checked = await checkBeforeSending(deps, orderId, row.sessionHash, now);
      if (checked) {
        outcome = checked;
      } else {
        precheck = false;
        outcome = await send(deps, row, orderId, now);
      }
    } else {
      outcome = await send(deps, row, orderId, now);
    }
  } catch (error) {
    outcome = fromClassified(classifyRegisterPurchaseFailure(error));
  }
  return finish(deps, { row, attempts, precheck, outcome, now });
}

type Outcome =
  | { kind: "registered"; response: unknown }
  | { kind: "not_applied"; reason: NotAppliedReason; message: string; detail: string }
  | { kind: "retry_later"; detail: string; unreachable: boolean; retryAfterMs?: number }
  | { kind: "no_trade_in"; detail: string };

function fromClassified(c: ReturnType<typeof classifyRegisterPurchaseFailure>): Outcome {
  return c.kind === "not_applied" ? c : retryLater(c);
}

/** The failure classes that mean the service did not answer at all: no connection, or no answer
 *  in time. The shoppers who pay next skip the call for a while (UNREACHABLE_MEMORY_MS). */
const UNREACHABLE_REASONS: ReadonlySet<RetryReason> = new Set(["network", "timeout"]);

function retryLater(c: { reason: RetryReason; detail: string; retryAfterMs?: number }): Outcome {
  return {
    kind: "retry_later",
    detail: `${c.reason}: ${c.detail}`,
    unreachable: UNREACHABLE_REASONS.has(c.reason),
    ...(c.retryAfterMs !== undefined ? { retryAfterMs: c.retryAfterMs } : {}),
  };
}

/** null when the trade-in is usable and the purchase should be sent. */
async function checkBeforeSending(
  deps: TradeInDeps,
  orderId: string,
  hash: string,
  now: Date,
): Promise<Outcome | null> {
  const lookup = await lookupSession(deps.client, hash);
  if (lookup.kind === "superseded") {
    return notApplied("session_superseded", "session version superseded (410)");
  }
  if (lookup.kind === "found") {
    const check = checkSessionTradeIn(lookup.tradeIn, now);
    if (check.usable) return null;
    if (check.problem !== "missing") return notApplied(check.problem, `checked: ${check.problem}`);
  }
  // No trade-in on the session (or no session): a plain purchase (go-live scenario 3), unless
  // this shopper's browser saw a valuation accepted, which the service stops showing once it
  // expired or was used: then say why it was not applied.
  const order = await deps.store.order(orderId);
  const seen = order ? await deps.store.tradeInSeen(order.sessionId) : null;
  if (!seen) return { kind: "no_trade_in", detail: NO_TRADE_IN_DETAILS[lookup.kind] };
  try {
    const item = await deps.client.getTradeInItem(seen);
    const check = checkTradeIn(item, now);
    const problem = check.usable ? "unknown" : check.problem;
    return notApplied(problem, `trade-in ${seen}: ${item.status ?? "no status"}`);
  } catch (error) {
    const problem = tradeInProblemFromError(error);
    if (!problem) throw error;
    return notApplied(problem, `trade-in ${seen}: ${problem}`);
  }
}

async function send(
  deps: TradeInDeps,
  row: { sessionHash: string; cart: string; orderAmount: number; customerId: string | null },
  orderId: string,
  now: Date,
): Promise<Outcome> {
  const order = await deps.store.order(orderId);
  const cart = JSON.parse(Buffer.from(row.cart, "base64").toString("utf8")) as Cart;
  const result = await registerPurchaseWithTradeIn(deps.client, {
    sessionHash: row.sessionHash,
    cart,
    orderAmount: row.orderAmount,
    ...(order ? { orderId: order.number } : {}),
    ...(row.customerId ? { customerId: row.customerId } : {}),
    now,
    // The session check passed (or is done above): a repeat after a transient failure must send
    // the same body again, not re-check a trade-in the first attempt may already have used.
    precheck: false,
  });
  return result.kind === "retry_later" ? retryLater(result) : result;
}

/**
 * Why a card order registers nothing (go-live scenario 3), in the inspector's words: the SDK
 * opens a session at the service on every page it loads, so a shopper who browsed the shop has
 * one, without a trade-in; only a shopper whose browser never ran the SDK has none (404).
 */
const NO_TRADE_IN_DETAILS: Record<"found" | "not_found", string> = {
  found: "The service's session for this shopper holds no trade-in: nothing to register.",
  not_found: "No session at the service for this shopper: no trade-in, nothing to register.",
};

function notApplied(reason: NotAppliedReason, detail: string): Outcome {
  return { kind: "not_applied", reason, message: NOT_APPLIED_MESSAGES[reason], detail };
}

async function finish(
  deps: TradeInDeps,
  p: {
    row: TradeInRegistration;
    attempts: number;
    precheck: boolean;
    outcome: Outcome;
    now: Date;
  },
): Promise<TradeInResult> {
  const { outcome } = p;
  const status: RegistrationStatus = outcome.kind === "retry_later" ? "queued" : outcome.kind;
  const message = outcome.kind === "not_applied" ? outcome.message : null;
  await deps.store.finish(
    p.row,
    {
      status,
      precheck: p.precheck,
      unreachable: outcome.kind === "retry_later" && outcome.unreachable,
      reason: outcome.kind === "not_applied" ? outcome.reason : "",
      lastError: outcome.kind === "registered" ? "" : outcome.detail.slice(0, 500),
      // Never sooner than the service's Retry-After (contract: Errors › Client guidance),
      // counted from now, the attempt's last answer: the client's own retries inside the
      // attempt may have taken longer than the backoff.
      nextAttemptAt:
        status === "queued"
          ? new Date(
              deps.now().getTime() +
                Math.max(
                  retryDelayMs(p.attempts),
                  outcome.kind === "retry_later" ? (outcome.retryAfterMs ?? 0) : 0,
                ),
            )
          : null,
      ...(outcome.kind === "registered"
        ? { response: JSON.stringify(outcome.response ?? null).slice(0, 2000) }
        : {}),
    },
    // The history records a change of the trade-in's state, not every retry (the store skips
    // an unchanged state). No trade-in at all says nothing, unless the order was shown as
    // queued: then it must stop saying "queued".
    outcome.kind !== "no_trade_in"
      ? { tradeInStatus: status, tradeInMessage: message, note: historyNote(outcome) }
      : (await deps.store.order(p.row.orderId))?.tradeInStatus === "queued"
        ? { tradeInStatus: status, tradeInMessage: null, note: historyNote(outcome) }
        : null,
  );
  recordStep({
    label: `register-purchase: ${STEP_WORDS[status]}`,
    ok: status === "registered" || status === "no_trade_in",
    // No trade-in is an expected step, explained in a sentence (docs/demo.md, scenario 3).
    ...(outcome.kind === "no_trade_in"
      ? { expected: outcome.detail }
      : {
          detail:
            outcome.kind === "registered" ? `attempt ${p.attempts}` : outcome.detail.slice(0, 200),
        }),
  });
  return resultOf(status, message);
}

const STEP_WORDS: Record<RegistrationStatus, string> = {
  queued: "queued",
  registered: "registered",
  not_applied: "not applied",
  no_trade_in: "no trade-in",
};

function historyNote(outcome: Outcome): string {
  switch (outcome.kind) {
    case "registered": {
      const duplicate =
        typeof outcome.response === "object" &&
        outcome.response !== null &&
        (outcome.response as { duplicate?: unknown }).duplicate === true;
      return `Trade-in registered with the service (register-purchase)${duplicate ? "; the service recognised a repeat" : ""}`;
    }
    case "not_applied":
      return `Trade-in not applied (${outcome.reason}): ${outcome.detail}`.slice(0, 500);
    case "retry_later":
      return `Trade-in registration queued, retried automatically: ${outcome.detail}`.slice(0, 500);
    case "no_trade_in":
      return "No trade-in in the session after all: a plain purchase, nothing registered";
  }
}

function resultOf(status: string, message: string | null | undefined): TradeInResult {
  const s = status as RegistrationStatus;
  return message ? { status: s, message } : { status: s };
}

// The retry job of queued register-purchase calls: the shop runs it on a timer (one per
// process, so on every instance) and on demand (`npm run jobs:retry`). Several runners at once
// are safe: each claims a batch of due rows (a lease), and each attempt claims its row first.

/** What one run of the retry job did, in counts of registrations. */
export interface RetryRunSummary {
  /** Due and leased by this run. */
  due: number;
  /** Accepted by the service. */
  registered: number;
  /** Refused for good (the trade-in was not applied). */
  notApplied: number;
  /** Nothing to register (no trade-in in the session). */
  noTradeIn: number;
  /** Still queued for a later run. */
  stillQueued: number;
}

/** The retry job: leases up to `limit` (default 20) due registrations (`all`: every queued
 *  one) and attempts each once; safe to run on every instance at once. */
export async function retryDueRegistrations(
  deps: TradeInDeps,
  options: { limit?: number; all?: boolean } = {},
): Promise<RetryRunSummary> {
  const now = deps.now();
  const due = await deps.store.due(now, {
    limit: options.limit ?? 20,
    all: options.all ?? false,
    until: new Date(now.getTime() + CLAIM_LEASE_MS),
  });
  const summary: RetryRunSummary = {
    due: due.length,
    registered: 0,
    notApplied: 0,
    noTradeIn: 0,
    stillQueued: 0,
  };
  for (const { orderId, attempts } of due) {
    const order = await deps.store.order(orderId);
    // The shopper's inspector drawer shows the retry too.
    const run = () => processRegistration(deps, orderId, attempts);
    const result = order ? await withInspectorSession(order.sessionId, run) : await run();
    if (result.status === "registered") summary.registered += 1;
    else if (result.status === "not_applied") summary.notApplied += 1;
    else if (result.status === "no_trade_in") summary.noTradeIn += 1;
    else summary.stillQueued += 1;
  }
  return summary;
}
