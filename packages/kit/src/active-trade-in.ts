"use client";

import { useEffect, useSyncExternalStore } from "react";
import { type PaymentOptionDetails, parsePaymentOptionDetails } from "./payment-option.js";
import { onServiceEvent, SERVICE_EVENTS, whenServiceReady } from "./sdk-events.js";

/**
 * The shopper's accepted trade-in as the SDK reports it, so the shop can show it in its own
 * amounts (product, cart, checkout). Read from `paymentOptionDetailsFor('ep1')`, whose `data`
 * carries the raw `valuation` (cents) and `tradein_currency` (contract: Resources › Payment
 * option details). Shared by every component of the page. Asking the SDK sends the cart to the
 * service (its purchase data), which can move the session to a new version, so it asks only
 * when needed: never while `hasActiveTradeIn()` is false; a page that shows no cart (product)
 * never asks and uses the value last seen in this tab; a cart page asks once for its cart, and
 * again after service-valuation-updated. The checkout's payment option publishes the details
 * it fetched itself (`publishPaymentOptionDetails`), so the checkout asks once.
 */
export interface ActiveTradeIn {
  /** cents */
  value: number;
  /** The trade-in's currency, ISO 4217 (the SDK's `tradein_currency`). */
  currency: string;
  /** The payment option mode for the current cart (tradein_valid: Service Pay takes it off). */
  mode: string;
}

let current: ActiveTradeIn | null = null;
let started = false;
/** The cart the last read was made for (undefined: a page that shows no cart). */
let readForCart: string | undefined;
let seq = 0;
const listeners = new Set<() => void>();

function fromDetails(details: PaymentOptionDetails | null | undefined): ActiveTradeIn | null {
  const value = details?.data?.valuation;
  const currency = details?.data?.tradein_currency;
  if (!details || typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    return null;
  }
  return currency ? { value, currency, mode: details.mode } : null;
}

const SEEN_KEY = "service-trade-in-seen";

function publish(next: ActiveTradeIn | null) {
  current = next;
  try {
    if (next) sessionStorage.setItem(SEEN_KEY, JSON.stringify(next));
    else sessionStorage.removeItem(SEEN_KEY);
  } catch {
    // Storage blocked: the next page asks the SDK again.
  }
  for (const listener of listeners) listener();
}

/** The trade-in last seen in this tab (its value does not depend on the cart). */
function lastSeen(): ActiveTradeIn | null {
  try {
    const raw = sessionStorage.getItem(SEEN_KEY);
    const parsed = raw ? (JSON.parse(raw) as Partial<ActiveTradeIn>) : null;
    return parsed &&
      typeof parsed.value === "number" &&
      Number.isSafeInteger(parsed.value) &&
      typeof parsed.currency === "string"
      ? { value: parsed.value, currency: parsed.currency, mode: String(parsed.mode ?? "") }
      : null;
  } catch {
    return null;
  }
}

/** The checkout's payment option hands over each answer it got (no second call). */
export function publishPaymentOptionDetails(details: PaymentOptionDetails | null): void {
  seq += 1;
  publish(fromDetails(details));
}

async function read(cartKey: string | undefined) {
  const mine = ++seq;
  readForCart = cartKey;
  const sdk = await whenServiceReady();
  if (!sdk) return;
  let next: ActiveTradeIn | null = null;
  try {
    if (!sdk.hasActiveTradeIn()) next = null;
    // A page without a cart never asks: the value last seen in this tab (a valuation event, a
    // cart or checkout page) is the trade-in's value whatever the cart.
    else if (cartKey === undefined) next = lastSeen();
    else next = fromDetails(parsePaymentOptionDetails(await sdk.paymentOptionDetailsFor("ep1")));
  } catch {
    // The SDK answered nothing usable: show prices without a trade-in.
  }
  if (mine === seq) publish(next);
}

function startReading(cartKey: string | undefined) {
  if (started) return;
  started = true;
  void read(cartKey);
  // A new valuation on a cart page: its mode for this cart is asked for again.
  onServiceEvent(SERVICE_EVENTS.valuationUpdated, () => {
    if (readForCart !== undefined) void read(readForCart);
  });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * The accepted trade-in in `currency`, or null (none, another currency, no SDK). `cartKey`
 * changes with the cart: the details are read again then. `reads: false` only listens (on the
 * checkout, where the payment option publishes).
 */
export function useActiveTradeIn(
  currency: string,
  options: { cartKey?: string; reads?: boolean } = {},
): ActiveTradeIn | null {
  const { cartKey, reads = true } = options;
  const tradeIn = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  // The payment option mode depends on the cart: a page showing another cart than the last read
  // was made for (a client-side navigation, a quantity change) reads again.
  useEffect(() => {
    if (!reads) return;
    if (!started) startReading(cartKey);
    else if (cartKey !== undefined && cartKey !== readForCart) void read(cartKey);
  }, [reads, cartKey]);
  return tradeIn && tradeIn.currency === currency ? tradeIn : null;
}

const APPLIED_KEY = "service-pay-trade-in";

/**
 * Kept when the payment modal opens: the trade-in Service Pay takes off this payment. The
 * confirmation page shows it while the order's notification (which carries the discount) has
 * not arrived yet. Display only: the order's amounts come from the signed webhook.
 */
export function rememberTradeInAtPayment(): void {
  try {
    if (current?.mode === "tradein_valid") {
      sessionStorage.setItem(APPLIED_KEY, JSON.stringify(current));
    } else sessionStorage.removeItem(APPLIED_KEY);
  } catch {
    // Storage blocked: the confirmation page then shows the discount once the webhook is in.
  }
}

/** The trade-in kept by `rememberTradeInAtPayment`, in `currency`, once mounted. */
export function useTradeInAtPayment(currency: string): ActiveTradeIn | null {
  const raw = useSyncExternalStore(
    subscribe,
    () => {
      try {
        return sessionStorage.getItem(APPLIED_KEY);
      } catch {
        return null;
      }
    },
    () => null,
  );
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<ActiveTradeIn>;
    return typeof parsed.value === "number" &&
      Number.isSafeInteger(parsed.value) &&
      parsed.currency === currency
      ? { value: parsed.value, currency, mode: String(parsed.mode) }
      : null;
  } catch {
    return null;
  }
}

/**
 * service-valuation-updated, on any page (the layout's TradeInMemo passes it on): the bundled
 * SDK's detail carries the accepted `value` and `currency` besides the contract's message; when
 * present they are kept as the trade-in last seen, so a product page can show it without asking.
 */
export function noteValuationUpdated(detail: unknown): void {
  const d = detail as { value?: unknown; currency?: unknown } | null;
  if (
    typeof d?.value === "number" &&
    Number.isSafeInteger(d.value) &&
    d.value > 0 &&
    typeof d.currency === "string"
  ) {
    publish({ value: d.value, currency: d.currency, mode: current?.mode ?? "" });
  }
}
