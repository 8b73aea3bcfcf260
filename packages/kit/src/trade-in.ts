import { ServiceApiError } from "./errors.js";
import type { TradeInItem } from "./resources.js";

/**
 * Is a trade-in usable for a purchase now? (contract: States › Trade-in item status, Valuation
 * validity; Endpoints › POST /register-purchase: "Trade-in must be `accepted` and unexpired".)
 * Pure: the caller passes the time, so an emulator clock or a test can move it.
 */

export type TradeInProblem = "missing" | "expired" | "not_accepted" | "unknown";

/** Whether a trade-in item can be used for a purchase now (accepted, not past valid_until). */
export type TradeInCheck =
  | {
      /** It can be used. */
      usable: true;
      /** The trade-in item as the service answered it. */
      item: TradeInItem;
      /** Its `valid_until`, read. */
      validUntil: Date;
    }
  | {
      /** It cannot be used. */
      usable: false;
      /** Why not. */
      problem: TradeInProblem;
      /** The shopper's words for it (TRADE_IN_PROBLEM_MESSAGES). */
      message: string;
    };

/** Words a shopper can read, saying what happened and what they can do. */
export const TRADE_IN_PROBLEM_MESSAGES: Record<TradeInProblem, string> = {
  missing: "There is no trade-in valuation in your session, so no trade-in discount was applied.",
  expired:
    "Your trade-in valuation has expired, so its discount was not applied. You can value your device again for a new offer.",
  not_accepted:
    "Your trade-in offer was not accepted, so its discount was not applied. Accept the offer in the valuation window to use it.",
  unknown: "We could not find your trade-in valuation, so its discount was not applied.",
};

/** The unusable check of `problem`, with its shopper's words. */
export function tradeInProblem(problem: TradeInProblem): TradeInCheck {
  return { usable: false, problem, message: TRADE_IN_PROBLEM_MESSAGES[problem] };
}

/** Checks a trade-in item at `now`: missing, not accepted, expired (after valid_until, or an
 *  unreadable one), or usable (contract: States › Valuation validity). */
export function checkTradeIn(item: TradeInItem | null | undefined, now: Date): TradeInCheck {
  if (!item) return tradeInProblem("missing");
  // Only `accepted` is named by the contract, and only it allows a purchase.
  if (item.status !== "accepted") return tradeInProblem("not_accepted");
  const validUntil = item.valid_until === undefined ? Number.NaN : Date.parse(item.valid_until);
  // "the valuation is unusable after" valid_until (expired when "now is after valid_until": at
  // valid_until exactly it is still valid); one we cannot read is treated as past, since the
  // service would refuse the purchase rather than honour an unknown deadline.
  if (Number.isNaN(validUntil) || now.getTime() > validUntil) return tradeInProblem("expired");
  return { usable: true, item, validUntil: new Date(validUntil) };
}

/** The problem a failed trade-in lookup stands for: 404 unknown, 410 expired (contract: Errors
 *  by condition). Anything else is not about the trade-in and returns undefined. */
export function tradeInProblemFromError(error: unknown): TradeInProblem | undefined {
  if (!(error instanceof ServiceApiError)) return undefined;
  if (error.status === 404) return "unknown";
  if (error.status === 410) return "expired";
  return undefined;
}
