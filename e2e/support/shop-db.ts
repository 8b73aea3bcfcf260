// What the shop's own database stores, read directly from the worker's SQLite file (read-only):
// the third party of the money checks, beside the shopper's page and the service's records.
import Database from "better-sqlite3";
import { STACK } from "./stack";

export interface StoredOrder {
  number: string;
  status: string;
  currency: string;
  price: number;
  tax: number;
  shippingPrice: number;
  /** the promotion codes' discounts summed */
  discountTotal: number;
  tradeInDiscount: number;
  total: number;
  cartId: string;
  serviceOrderId: string | null;
}

function findOrder(where: "number" | "cartId", value: string): StoredOrder | null {
  const db = new Database(STACK.databaseFile, { readonly: true });
  try {
    return (
      (db
        .prepare(
          `SELECT number, status, currency, price, tax, shippingPrice, discountTotal, tradeInDiscount, total,
            cartId, serviceOrderId FROM "Order" WHERE ${where} = ?`,
        )
        .get(value) as StoredOrder | undefined) ?? null
    );
  } finally {
    db.close();
  }
}

/** The order as the shop stored it, by its number (null when there is none). */
export const storedOrder = (number: string) => findOrder("number", number);

/** The order the shop made of a cart (null when there is none). */
export const storedOrderOfCart = (cartId: string) => findOrder("cartId", cartId);

export interface StoredStatusChange {
  from: string | null;
  to: string;
  source: string;
}

export interface StoredNotification {
  notificationId: string | null;
  status: string;
  outcome: string;
}

function readRows<T>(sql: string, ...params: string[]): T[] {
  const db = new Database(STACK.databaseFile, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** The status history the shop stored for the order of a cart, oldest first. */
export const statusChangesOfCart = (cartId: string) =>
  readRows<StoredStatusChange>(
    `SELECT c."from", c."to", c.source FROM OrderStatusChange c JOIN "Order" o ON o.id = c.orderId
     WHERE o.cartId = ? ORDER BY c.createdAt, c.rowid`,
    cartId,
  );

/** The order notifications the shop stored for a cart (one row per distinct notification). */
export const notificationsOfCart = (cartId: string) =>
  readRows<StoredNotification>(
    `SELECT notificationId, status, outcome FROM ServiceNotification WHERE cartId = ?
     ORDER BY receivedAt, rowid`,
    cartId,
  );
