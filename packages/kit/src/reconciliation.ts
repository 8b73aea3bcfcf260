import "server-only";
import { centsText } from "./cart.js";
import type { ServiceClient } from "./client.js";
import { type NotificationDeps, receiveNotification, totalBeforeTradeIn } from "./order-webhook.js";
import type { OrderList } from "./resources.js";
import type { ServiceOrderStore, ShopOrder } from "./shop-ports.js";
import { dedupeKey } from "./webhook-payload.js";

/**
 * Reconciliation (contract: Endpoints › GET /payments/orders/, "used for reconciliation"; issue
 * #6, item 4). The webhook is the service's only push; when one never arrived (the shop was down
 * past the retries, a proxy ate it), the order stays pending here although the service took the
 * payment. The reconciler lists the service's paid orders and matches them with the shop's.
 * A repair goes through the webhook's own path (receiveNotification), so a reconciled order
 * ends exactly as if its webhook had arrived, and a webhook arriving later is a no-op.
 */

export type ServiceOrderEntry = OrderList["orders"][number];

/** The shop's order a listed service order matched: enough to judge and describe it. */
export interface LocalOrderRef {
  /** The shop's order id. */
  id: string;
  /** The order's number shown to shoppers. */
  number: string;
  /** The cart it was made from. */
  cartId: string;
  /** The shop's status. */
  status: string;
  /** The service's order id it holds, or null before a notification named it. */
  serviceOrderId: string | null;
}

/** What the shop recorded an order owes (ShopOrder's amounts). */
export type RecordedAmounts = Pick<
  ShopOrder,
  "currency" | "price" | "tax" | "shippingPrice" | "discountTotal" | "tradeInDiscount" | "total"
>;

/**
 * Why what the service lists for a paid order differs from what the shop recorded as paid, or
 * null when they agree (docs/decisions/payment-matching.md): `amount` is everything the order
 * owes before the trade-in, and `amount − trade_in_discount`, what the service collected, is
 * the order's total. A field the listing does not carry is not compared (the contract shows
 * only order_id, amount and customer_id for certain).
 */
export function collectedMismatch(entry: ServiceOrderEntry, local: RecordedAmounts): string | null {
  const listed = entry as Record<string, unknown>;
  const currency = typeof listed.currency === "string" ? listed.currency : null;
  const money = (cents: number) => centsText(cents, local.currency);
  const problems: string[] = [];
  if (currency !== null && currency !== local.currency) {
    problems.push(`the service lists it in ${currency}, the shop recorded ${local.currency}`);
  }
  const owed = totalBeforeTradeIn(local);
  if (entry.amount !== undefined && entry.amount !== owed) {
    problems.push(
      `the service lists ${money(entry.amount)} before the trade-in, the shop recorded ${money(owed)}`,
    );
  }
  const discount = Number.isSafeInteger(listed.trade_in_discount)
    ? (listed.trade_in_discount as number)
    : null;
  if (entry.amount !== undefined && discount !== null && entry.amount - discount !== local.total) {
    problems.push(
      `the service collected ${money(entry.amount - discount)}, the shop recorded ${money(local.total)} as paid`,
    );
  }
  return problems.length > 0 ? problems.join("; ") : null;
}

/** What to do about one listed service order. */
export type ReconcileStep =
  /** The shop's order is behind the service: apply the service's status as the webhook would. */
  | {
      /** Apply the service's status. */
      kind: "repair";
      /** The listed service order. */
      entry: ServiceOrderEntry;
      /** The shop's order, or null when there is none yet (webhook mode creates it). */
      local: LocalOrderRef | null;
    }
  /** Already where the service says (or further along): nothing to do. */
  | {
      /** Nothing to do. */
      kind: "in_sync";
      /** The listed service order. */
      entry: ServiceOrderEntry;
      /** The shop's order. */
      local: LocalOrderRef;
    }
  /** Matched by cart id, but the shop holds another service order id for it: a person decides. */
  | {
      /** A person decides. */
      kind: "conflict";
      /** The listed service order. */
      entry: ServiceOrderEntry;
      /** The shop's order of the same cart. */
      local: LocalOrderRef;
    };

/**
 * Matches each listed order with a local one, first by service order id, then by cart id (the
 * webhook's own keys, contract: Events › Webhook). An entry with no local order is still a
 * `repair`: in webhook mode the order is created from the checkout details kept at payment start.
 */
export function planReconciliation(
  entries: readonly ServiceOrderEntry[],
  locals: readonly LocalOrderRef[],
  isPaidOrLater: (status: string) => boolean,
): ReconcileStep[] {
  const byServiceId = new Map(
    locals.filter((o) => o.serviceOrderId).map((o) => [o.serviceOrderId as string, o]),
  );
  const byCart = new Map(locals.map((o) => [o.cartId, o]));
  return entries.map((entry): ReconcileStep => {
    const local =
      byServiceId.get(entry.order_id) ?? (entry.cart_id ? byCart.get(entry.cart_id) : undefined);
    if (!local) return { kind: "repair", entry, local: null };
    if (local.serviceOrderId && local.serviceOrderId !== entry.order_id) {
      return { kind: "conflict", entry, local };
    }
    // Matched by the service's order id, but the service names another cart: the same payment
    // cannot be for two carts, so a person looks at it rather than trust either id alone.
    if (entry.cart_id && local.cartId !== entry.cart_id) {
      return { kind: "conflict", entry, local };
    }
    if (isPaidOrLater(local.status) && local.serviceOrderId) {
      return { kind: "in_sync", entry, local };
    }
    return { kind: "repair", entry, local };
  });
}

/** What a reconciliation run did, in counts of listed service orders. */
export interface ReconcileReport {
  /** Listed by the service (payment_completed, at most 100). */
  listed: number;
  /** Brought up to the service's status. */
  repaired: number;
  /** Already in sync. */
  inSync: number;
  /** Left for a person (a conflict, a mismatch, a failed repair). */
  unresolved: number;
  /** One sentence per service order, for the admin and the script's output. */
  lines: string[];
}

/** Lists the service's paid orders (`GET /payments/orders/`), matches each with the shop's, and
 *  applies what the webhook would have for those behind: a missed notification repaired. */
export async function reconcileServiceOrders(
  deps: NotificationDeps & { orders: ServiceOrderStore; client: Pick<ServiceClient, "listOrders"> },
): Promise<ReconcileReport> {
  const { orders } = await deps.client.listOrders({ status: "payment_completed", limit: 100 });
  const ids = orders.map((o) => o.order_id);
  const carts = orders.map((o) => o.cart_id).filter((c): c is string => typeof c === "string");
  const locals = await deps.orders.findOrders(ids, carts);
  const report: ReconcileReport = {
    listed: orders.length,
    repaired: 0,
    inSync: 0,
    unresolved: 0,
    lines: [],
  };
  for (const step of planReconciliation(orders, locals, deps.statuses.isPaidOrLater)) {
    const { entry } = step;
    const name = `service order ${entry.order_id} (cart ${entry.cart_id ?? "?"})`;
    if (step.kind === "in_sync") {
      const local = locals.find((o) => o.id === step.local.id);
      const differs = local ? collectedMismatch(entry, local) : null;
      if (differs) {
        report.unresolved += 1;
        report.lines.push(
          `${name}: shop order ${step.local.number} is paid, but the amounts differ: ${differs}; left for a person to check.`,
        );
      } else {
        report.inSync += 1;
      }
      continue;
    }
    if (step.kind === "conflict") {
      report.unresolved += 1;
      const why =
        step.local.serviceOrderId === entry.order_id
          ? `is for cart ${step.local.cartId}`
          : `holds service order ${step.local.serviceOrderId}`;
      report.lines.push(
        `${name}: shop order ${step.local.number} ${why}; left for a person to check.`,
      );
      continue;
    }
    const extra = entry as Record<string, unknown>;
    const body = JSON.stringify({ source: "reconciliation", ...entry });
    const status = entry.status ?? "payment_completed";
    const ids = {
      notificationId: null,
      serviceOrderId: entry.order_id,
      cartId: entry.cart_id ?? null,
    };
    const result = await receiveNotification(deps, {
      ...ids,
      dedupeKey: dedupeKey({ ...ids, status }),
      event: "reconciliation",
      status,
      amount: entry.amount ?? null,
      currency: typeof extra.currency === "string" ? extra.currency : null,
      tradeInDiscount: Number.isSafeInteger(extra.trade_in_discount)
        ? (extra.trade_in_discount as number)
        : null,
      customerId: null,
      form: "flat",
      body,
    });
    const [after] = await deps.orders.findOrders(
      [entry.order_id],
      entry.cart_id ? [entry.cart_id] : [],
    );
    if (after?.status === deps.statuses.held && step.local?.status !== deps.statuses.held) {
      report.unresolved += 1;
      report.lines.push(
        `${name}: shop order ${after.number} held for a person: the payment does not match the order.`,
      );
    } else if (after && after.status !== step.local?.status) {
      report.repaired += 1;
      report.lines.push(
        `${name}: shop order ${after.number} ${step.local ? `moved from ${step.local.status}` : "created"} to ${after.status}.`,
      );
    } else if (after) {
      report.inSync += 1;
      if (result.outcome !== "duplicate" && !step.local?.serviceOrderId) {
        report.lines.push(`${name}: linked to shop order ${after.number}.`);
      }
    } else {
      report.unresolved += 1;
      report.lines.push(`${name}: no shop order has this cart; left for a person to check.`);
    }
  }
  // Whatever else needs a person, whether or not the service listed it now.
  const attention = await deps.orders.needsAttention();
  for (const order of attention.held) {
    // The reason is the history note that held it (order-webhook.ts, paymentMismatch): amount,
    // currency, or a trade-in discount that does not match the accepted valuation.
    report.lines.push(
      `shop order ${order.number} (cart ${order.cartId}) is held: a payment notification did not match it: ${order.heldBecause || "see its history"}.`,
    );
  }
  for (const id of attention.reusedNotificationIds) {
    report.lines.push(
      `notification id ${id} was used by more than one payment; each was kept as its own.`,
    );
  }
  report.lines.unshift(
    `Listed ${report.listed} paid service orders: ${report.repaired} repaired, ${report.inSync} already in step, ${report.unresolved} need a person; ${attention.held.length} held orders, ${attention.reusedNotificationIds.length} reused notification ids.`,
  );
  return report;
}
