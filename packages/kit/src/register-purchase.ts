import "server-only";
import { type Cart, cartSchema } from "./cart.js";
import type { RegisterPurchaseBody, ServiceClient } from "./client.js";
import {
  ServiceApiError,
  ServiceError,
  ServiceInputError,
  ServiceNetworkError,
  ServiceTimeoutError,
} from "./errors.js";
import { checkSessionTradeIn, lookupSession, SessionLookupError } from "./session-lookup.js";
import { TRADE_IN_PROBLEM_MESSAGES, type TradeInProblem } from "./trade-in.js";

/**
 * The trade-in on "other payment methods" (contract: What the service does 4, Endpoints ›
 * POST /register-purchase; public-docs-facts: go-live scenario 2). After the shop took payment:
 * look the session up (following versions), check the trade-in is `accepted` and unexpired,
 * then register the purchase. A failure never undoes the order; it is either told to the
 * shopper (the trade-in was not applied, and why) or queued to be retried later.
 * Server-only (Buffer).
 */

/** Base64 of the JSON of the contract Cart (contract: Endpoints › POST /register-purchase). */
export function encodeCart(cart: Cart): string {
  const valid = cartSchema.safeParse(cart);
  if (!valid.success) throw new ServiceInputError("register-purchase", "cart breaks the contract");
  return Buffer.from(JSON.stringify(valid.data), "utf8").toString("base64");
}

/** What a register-purchase is made of (contract: Endpoints › POST /register-purchase). */
export interface RegisterPurchaseInput {
  /** The shopper's session hash (contract: Session hash), the trade-in's key. */
  sessionHash: string;
  /** The contract Cart of the order (sent as Base64 of its JSON). */
  cart: Cart;
  /** Integer cents (contract: Limits). */
  orderAmount: number;
  /** The shop's order number, sent as `order_id` when given. */
  orderId?: string;
  /** The customer's id, sent as `customer_id` when given. */
  customerId?: string;
}

/** The register-purchase body; throws ServiceInputError when `orderAmount` is not integer
 *  cents (the service would answer 400). */
export function buildRegisterPurchaseBody(input: RegisterPurchaseInput): RegisterPurchaseBody {
  if (!Number.isSafeInteger(input.orderAmount) || input.orderAmount < 0) {
    throw new ServiceInputError("register-purchase", "order_amount must be an integer in cents");
  }
  return {
    session_hash: input.sessionHash,
    cart: encodeCart(input.cart),
    order_amount: input.orderAmount,
    ...(input.orderId ? { order_id: input.orderId } : {}),
    ...(input.customerId ? { customer_id: input.customerId } : {}),
  };
}

/** Why the trade-in was not applied, in the shopper's terms. */
export type NotAppliedReason = TradeInProblem | "session_superseded" | "rejected";

/** How a register-purchase ended: registered, not applied (final), or to retry later. */
export type RegisterPurchaseOutcome =
  | {
      /** The service accepted the purchase. */
      kind: "registered";
      /** Its answer's body, as read ("Success response body: not shown"). */
      response: unknown;
    }
  /** Final: tell the shopper the trade-in was not applied and why; the order stands. */
  | {
      /** Final: not applied. */
      kind: "not_applied";
      /** Why, in the shopper's terms. */
      reason: NotAppliedReason;
      /** The shopper's words for it (NOT_APPLIED_MESSAGES). */
      message: string;
      /** What the service or the check said, for the shop's staff. */
      detail: string;
    }
  /** Transient: keep the order, queue the registration and retry later. */
  | {
      /** Transient: retry later. */
      kind: "retry_later";
      /** Why it could not be done now. */
      reason: RetryReason;
      /** What happened, for the shop's staff. */
      detail: string;
      /** The service's Retry-After in milliseconds, when it sent one: wait at least that. */
      retryAfterMs?: number;
    };

/** Why a register-purchase is to be retried: the moment, not the purchase (429, 503, 5xx, no
 *  answer, the merchant's credentials, a session still moving to a new version). */
export type RetryReason =
  | "rate_limited"
  | "unavailable"
  | "timeout"
  | "network"
  | "server_error"
  | "authorization"
  | "session_unsettled";

/** The shopper's words for each reason the trade-in was not applied. */
export const NOT_APPLIED_MESSAGES: Record<NotAppliedReason, string> = {
  ...TRADE_IN_PROBLEM_MESSAGES,
  session_superseded:
    "Your trade-in session changed after your valuation, so its discount was not applied to this order.",
  rejected:
    "The trade-in service could not accept this order's details, so the trade-in discount was not applied.",
};

/**
 * Sorts a failure of the lookup or the registration (contract: Errors, Status codes):
 * 400 / 404 / 410 are answers about this purchase and will not change on retry → not_applied;
 * 429, 503, 5xx, timeouts and network failures are about the moment → retry_later. 401 and 403
 * (after the token manager's own refresh) are the merchant's credentials, not the shopper's
 * purchase, so they are retried later too, once an operator fixes the configuration.
 */
export function classifyRegisterPurchaseFailure(
  error: unknown,
): Exclude<RegisterPurchaseOutcome, { kind: "registered" }> {
  if (error instanceof ServiceApiError) {
    const detail = error.message;
    if (error.status === 404) return notApplied("unknown", detail);
    if (error.status === 410) return notApplied("expired", detail);
    if (error.status === 400 || error.status === 422) return notApplied("rejected", detail);
    // The service's Retry-After travels with the outcome: the retry queue waits at least that
    // long (contract: Errors › Client guidance).
    const wait = error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {};
    if (error.status === 429) {
      return { kind: "retry_later", reason: "rate_limited", detail, ...wait };
    }
    if (error.status === 503)
      return { kind: "retry_later", reason: "unavailable", detail, ...wait };
    if (error.status === 401 || error.status === 403) {
      return { kind: "retry_later", reason: "authorization", detail };
    }
    return { kind: "retry_later", reason: "server_error", detail };
  }
  // Our own input broke a contract rule (e.g. a decimal amount): retrying cannot help.
  if (error instanceof ServiceInputError) return notApplied("rejected", error.message);
  if (error instanceof ServiceTimeoutError) {
    return { kind: "retry_later", reason: "timeout", detail: error.message };
  }
  if (error instanceof ServiceNetworkError) {
    return { kind: "retry_later", reason: "network", detail: error.message };
  }
  if (error instanceof SessionLookupError) {
    return { kind: "retry_later", reason: "session_unsettled", detail: error.message };
  }
  if (error instanceof ServiceError) {
    return { kind: "retry_later", reason: "server_error", detail: error.message };
  }
  throw error;
}

/**
 * The whole step for one paid order. The session hash sent is the one we were given (it names
 * the session, so the service resolves its current version), not the versioned `session_id`,
 * which a later cart change could supersede between our lookup and the registration.
 */
export async function registerPurchaseWithTradeIn(
  client: Pick<ServiceClient, "getSession" | "getTradeInItem" | "registerPurchase">,
  input: RegisterPurchaseInput & {
    now: Date;
    /** false for a queued retry: a first attempt that did go through has used the trade-in, so
     *  the session check would now say "missing"; the service decides instead. */
    precheck?: boolean;
  },
): Promise<RegisterPurchaseOutcome> {
  try {
    const body = buildRegisterPurchaseBody(input);
    if (input.precheck === false) {
      return { kind: "registered", response: await client.registerPurchase(body) };
    }
    const lookup = await lookupSession(client, input.sessionHash);
    if (lookup.kind === "not_found") return notApplied("unknown", "session not found (404)");
    if (lookup.kind === "superseded") {
      return notApplied("session_superseded", "session version superseded (410)");
    }
    const check = checkSessionTradeIn(lookup.tradeIn, input.now);
    if (!check.usable) return notApplied(check.problem, `checked before sending: ${check.problem}`);
    return { kind: "registered", response: await client.registerPurchase(body) };
  } catch (error) {
    return classifyRegisterPurchaseFailure(error);
  }
}

function notApplied(reason: NotAppliedReason, detail: string) {
  return { kind: "not_applied" as const, reason, message: NOT_APPLIED_MESSAGES[reason], detail };
}
