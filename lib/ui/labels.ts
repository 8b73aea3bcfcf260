// Plain words for stored codes, for the back office and the shopper's pages (display only).
import { formatMoney } from "@/lib/shop/money";

const PAYMENT_LABELS: Record<string, string> = { card: "Card", service_pay: "Service Pay" };
const SHIPPING_LABELS: Record<string, string> = {
  standard: "Standard delivery",
  express: "Express delivery",
};

export function paymentLabel(value: string): string {
  return PAYMENT_LABELS[value] ?? value;
}

export function shippingLabel(value: string): string {
  return SHIPPING_LABELS[value] ?? value;
}

/** The shop's own time zone (it sells in Ireland and the UK): the same on every server. */
const dateTime = new Intl.DateTimeFormat("en-IE", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "Europe/Dublin",
});

/** "22 Nov 2026, 16:40" in the shop's time zone. */
export function localDateTime(at: Date): string {
  return dateTime.format(at);
}

const TRADE_IN_STATUS_LABELS: Record<string, string> = {
  registered: "Registered",
  queued: "Being registered",
  not_applied: "Not applied",
};

/** The trade-in of an order in one short phrase, or "" when it had none. */
export function tradeInSummary(order: {
  paymentMethod: string;
  tradeInStatus: string | null;
  tradeInDiscount: number;
  currency: string;
}): string {
  if (order.paymentMethod === "service_pay" && order.tradeInDiscount > 0) {
    return `−${formatMoney(order.tradeInDiscount, order.currency)} off the payment`;
  }
  if (order.tradeInStatus && order.tradeInStatus !== "no_trade_in") {
    return TRADE_IN_STATUS_LABELS[order.tradeInStatus] ?? order.tradeInStatus;
  }
  return "";
}

const STATUS_SOURCE_WORDS: Record<string, string> = {
  shop: "The shop",
  admin: "The back office",
  service: "The service",
};

/**
 * One status history line as a sentence: who, what, and the note in plain words. A service
 * notification's note carries its id or dedupe key (`order:…:cart:…:status:…`, for operators
 * searching the logs): the sentence keeps only the event, the key stays in the title attribute.
 */
export function historySentence(
  change: { from: string | null; to: string; source: string; note: string },
  label: (status: string) => string,
): string {
  const who = STATUS_SOURCE_WORDS[change.source] ?? change.source;
  const what =
    change.from === null
      ? `set the status to ${label(change.to)}`
      : change.from === change.to
        ? `kept the status ${label(change.to)}`
        : `changed the status from ${label(change.from)} to ${label(change.to)}`;
  const notification = /^Service notification \S+(?: \(([^)]+)\))?(;.*)?$/.exec(change.note);
  const event = notification?.[1];
  const note = !notification
    ? change.note
    : event === "reconciliation"
      ? "found by reconciliation with the service"
      : `notification${event ? ` ${event}` : ""} received${notification[2] ?? ""}`;
  return `${who} ${what}${note ? `: ${note}` : ""}.`;
}
