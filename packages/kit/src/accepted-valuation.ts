import "server-only";
import { centsText } from "./cart.js";
import type { CallPatience, ServiceClient } from "./client.js";
import { lookupSession } from "./session-lookup.js";
import type { AcceptedValuation } from "./shop-ports.js";

/**
 * The shopper's accepted valuation when a Service Pay payment starts, and whether a payment's
 * trade-in discount matches it (docs/decisions/payment-matching.md). The shop asks the service
 * itself, server side with its own token (contract: GET /core/sessions/{session_hash}/, GET
 * /core/tradeinitems/{id}/); nothing the browser says about the trade-in is trusted. The contract
 * shows no value field on a trade-in item ("other fields: not shown"): `value` and `currency`
 * are read when the service gives them, and without them the valuation is "unknown".
 */

export type ValuationClient = Pick<ServiceClient, "getSession" | "getTradeInItem">;

/** The shopper waits on the payment start: one attempt per call, each short. */
const PATIENCE: CallPatience = { maxAttempts: 1, timeoutMs: 3_000 };
/** The whole look-up, a token login included; past it the valuation is unknown. */
const DEFAULT_DEADLINE_MS = 4_000;

type State = "known" | "none" | "unknown";

/** No valuation was looked up (a payment whose start kept no details). */
export const NOT_LOOKED_UP: AcceptedValuation = {
  valuationState: null,
  valuationItemId: null,
  valuationValue: null,
  valuationCurrency: null,
  valuationNote: null,
};

function valuation(
  state: State,
  note: string,
  item: { id?: string | null; value?: number | null; currency?: string | null } = {},
): AcceptedValuation {
  return {
    valuationState: state,
    valuationItemId: item.id ?? null,
    valuationValue: item.value ?? null,
    valuationCurrency: item.currency ?? null,
    valuationNote: note.slice(0, 500),
  };
}

/**
 * What the service says of the session's accepted trade-in now. Never throws: a service that is
 * down or slow gives "unknown" (the payment still starts; the paid notification is then checked
 * by the order total only, and its history says so). `deps.client` is read inside, so a service
 * that is not configured is "unknown" too.
 */
export async function lookupAcceptedValuation(
  deps: { client: ValuationClient },
  sessionHash: string,
  options: { deadlineMs?: number } = {},
): Promise<AcceptedValuation> {
  try {
    return await withinDeadline(
      readValuation(deps.client, sessionHash),
      options.deadlineMs ?? DEFAULT_DEADLINE_MS,
    );
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return valuation("unknown", `the service could not be asked at payment start: ${why}`);
  }
}

async function readValuation(client: ValuationClient, hash: string): Promise<AcceptedValuation> {
  const patient: ValuationClient = {
    getSession: (key) => client.getSession(key, PATIENCE),
    getTradeInItem: (id) => client.getTradeInItem(id, PATIENCE),
  };
  const lookup = await lookupSession(patient, hash);
  if (lookup.kind === "not_found") return valuation("none", "the service knows no such session");
  if (lookup.kind === "superseded") {
    return valuation("unknown", "the session version was superseded and nothing newer is known");
  }
  const { tradeIn } = lookup;
  if (tradeIn.kind === "none") return valuation("none", "the session has no trade-in");
  if (tradeIn.kind === "lookup_failed") {
    return valuation("none", `the session's trade-in is ${tradeIn.problem}`);
  }
  const { item } = tradeIn;
  if (item.status !== "accepted") {
    return valuation("none", `trade-in ${item.id ?? "?"} is ${item.status ?? "without status"}`, {
      id: item.id ?? null,
    });
  }
  if (item.value === undefined || item.currency === undefined) {
    return valuation(
      "unknown",
      `the service shows no value in whole cents and currency for trade-in ${item.id ?? "?"}`,
      { id: item.id ?? null },
    );
  }
  return valuation(
    "known",
    `trade-in ${item.id ?? "?"}: ${centsText(item.value, item.currency)}`,
    item,
  );
}

function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  // The late look-up is a GET and may finish on its own; its outcome is not needed any more.
  work.catch(() => {});
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Why a trade-in discount does not match the accepted valuation (null: it matches, or there is
 * nothing to match it with). Known value: the discount must be min(value, the order's total
 * before the discount), and the trade-in in the order's currency. No accepted trade-in: no
 * discount. Unknown: nothing here (the caller's range check still applies; `unconfirmedValuation`).
 */
export function valuationMismatch(
  v: Partial<AcceptedValuation>,
  order: { currency: string; totalBeforeDiscount: number },
  tradeInDiscount: number,
): string | null {
  const item = v.valuationItemId ? `trade-in ${v.valuationItemId}` : "the trade-in";
  const money = (cents: number) => centsText(cents, order.currency);
  if (v.valuationState === "known" && v.valuationValue != null) {
    if (v.valuationCurrency !== order.currency) {
      return `the accepted ${item} is in ${v.valuationCurrency}, the order in ${order.currency}`;
    }
    const expected = expectedTradeInDiscount(v, order);
    return tradeInDiscount === expected
      ? null
      : `trade-in discount ${money(tradeInDiscount)}, the accepted valuation of ${item} allows ${money(expected ?? 0)}`;
  }
  if (v.valuationState === "none" && tradeInDiscount > 0) {
    return `trade-in discount ${money(tradeInDiscount)}, but there was no accepted trade-in when the payment started (${v.valuationNote ?? "none"})`;
  }
  return null;
}

/**
 * The trade-in discount the accepted valuation allows on an order: min(value, the order's total
 * before the discount) when the value is known in the order's currency, 0 when there was no
 * accepted trade-in, null when it is not known (the paid notification's range check decides).
 */
export function expectedTradeInDiscount(
  v: Partial<AcceptedValuation>,
  order: { currency: string; totalBeforeDiscount: number },
): number | null {
  if (v.valuationState === "known" && v.valuationValue != null) {
    return v.valuationCurrency === order.currency
      ? Math.min(v.valuationValue, order.totalBeforeDiscount)
      : null;
  }
  return v.valuationState === "none" ? 0 : null;
}

/** The history's words when the discount could only be range-checked, else null. */
export function unconfirmedValuation(v: Partial<AcceptedValuation>): string | null {
  if (v.valuationState === "none") return null;
  if (v.valuationState === "known" && v.valuationValue != null) return null;
  const why = v.valuationState ? (v.valuationNote ?? "no reason kept") : "none was kept";
  return `the accepted valuation could not be confirmed (${why}): the trade-in discount was checked against the order total only`;
}
