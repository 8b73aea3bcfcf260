import "server-only";
import type { OrderChange, ShopOrder } from "@service-integration/kit";
import type { OrderLockKeys } from "@service-integration/prisma-adapter";
import { getDb, type Tx } from "@/lib/db/client";
import { serviceAdapter } from "./service";

// The shop's own order changes (card checkout, back office) written by the adapter's one writer
// of an order's status and history (the kit's createServiceAdapter: writeOrderChange,
// recordNewOrder, lockOrders), so OrderStatusChange has one writer whoever changes the order
// (docs/decisions/concurrent-order-changes.md). Each runs in the caller's transaction `tx`.

/** Changes the order and records the change in its history (the total re-derived). */
export function writeOrderChange(tx: Tx, order: ShopOrder, change: OrderChange) {
  return serviceAdapter(getDb()).writeOrderChange(tx, order, change);
}

/** A new order's first history line. */
export function recordNewOrder(tx: Tx, order: { id: string; status: string }, note: string) {
  return serviceAdapter(getDb()).recordNewOrder(tx, order, "shop", note);
}

/** Locks the orders `keys` name until `tx` ends (PostgreSQL FOR UPDATE; SQLite's write lock). */
export async function lockOrders(tx: Tx, keys: OrderLockKeys): Promise<void> {
  await serviceAdapter(getDb()).lockOrders(tx, keys);
}
