import { PAID_OR_LATER } from "@/lib/shop/order-status";
import type { OrderList } from "./resources";

/**
 * Reconciliation (contract: Endpoints › GET /payments/orders/, "used for reconciliation"; issue
 * #6, item 4). The webhook is the service's only push; when one never arrived (the shop was down
 * past the retries, a proxy ate it), the order stays pending here although the service took the
 * payment. The reconciler lists the service's paid orders and matches them with the shop's.
 * Pure: the shop's side passes its orders in, applies the plan and reports it.
 */

export type ServiceOrderEntry = OrderList["orders"][number];

export interface LocalOrderRef {
  id: string;
  number: string;
  cartId: string;
  status: string;
  serviceOrderId: string | null;
}

export type ReconcileStep =
  /** The shop's order is behind the service: apply the service's status as the webhook would. */
  | { kind: "repair"; entry: ServiceOrderEntry; local: LocalOrderRef | null }
  /** Already where the service says (or further along): nothing to do. */
  | { kind: "in_sync"; entry: ServiceOrderEntry; local: LocalOrderRef }
  /** Matched by cart id, but the shop holds another service order id for it: a person decides. */
  | { kind: "conflict"; entry: ServiceOrderEntry; local: LocalOrderRef };

/**
 * Matches each listed order with a local one, first by service order id, then by cart id (the
 * webhook's own keys, contract: Events › Webhook). An entry with no local order is still a
 * `repair`: in webhook mode the order is created from the checkout details kept at payment start.
 */
export function planReconciliation(
  entries: readonly ServiceOrderEntry[],
  locals: readonly LocalOrderRef[],
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
    if (PAID_OR_LATER.has(local.status) && local.serviceOrderId) {
      return { kind: "in_sync", entry, local };
    }
    return { kind: "repair", entry, local };
  });
}
