import type { Db } from "@/lib/db/client";
import type { ServiceClient } from "@/lib/service/client";
import { receiveNotification } from "@/lib/service/order-webhook";
import { planReconciliation } from "@/lib/service/reconciliation";
import { dedupeKey } from "@/lib/service/webhook-payload";
import { servicePayDeps } from "@/lib/service-adapter/service";

// Runs the reconciliation plan (lib/service/reconciliation.ts) against the shop's database. A
// repair goes through the webhook's own path (receiveServiceNotification), so a reconciled order
// ends exactly as if its webhook had arrived, and a webhook arriving later is a no-op.

export interface ReconcileReport {
  listed: number;
  repaired: number;
  inSync: number;
  unresolved: number;
  /** One sentence per service order, for the admin and the script's output. */
  lines: string[];
}

export async function reconcileServiceOrders(deps: {
  db: Db;
  client: Pick<ServiceClient, "listOrders">;
}): Promise<ReconcileReport> {
  const { orders } = await deps.client.listOrders({ status: "payment_completed", limit: 100 });
  const ids = orders.map((o) => o.order_id);
  const carts = orders.map((o) => o.cart_id).filter((c): c is string => typeof c === "string");
  const locals = await deps.db.order.findMany({
    where: { OR: [{ serviceOrderId: { in: ids } }, { cartId: { in: carts } }] },
    select: { id: true, number: true, cartId: true, status: true, serviceOrderId: true },
  });
  const report: ReconcileReport = {
    listed: orders.length,
    repaired: 0,
    inSync: 0,
    unresolved: 0,
    lines: [],
  };
  const notificationDeps = servicePayDeps();
  for (const step of planReconciliation(orders, locals)) {
    const { entry } = step;
    const name = `service order ${entry.order_id} (cart ${entry.cart_id ?? "?"})`;
    if (step.kind === "in_sync") {
      report.inSync += 1;
      continue;
    }
    if (step.kind === "conflict") {
      report.unresolved += 1;
      report.lines.push(
        `${name}: shop order ${step.local.number} holds service order ${step.local.serviceOrderId}; left for a person to check.`,
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
    const result = await receiveNotification(notificationDeps, {
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
    const after = await deps.db.order.findFirst({
      where: { OR: [{ serviceOrderId: entry.order_id }, { cartId: entry.cart_id ?? "" }] },
      select: { number: true, status: true },
    });
    if (after && after.status !== step.local?.status) {
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
  report.lines.unshift(
    `Listed ${report.listed} paid service orders: ${report.repaired} repaired, ${report.inSync} already in step, ${report.unresolved} need a person.`,
  );
  return report;
}
