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
  tradeInDiscount: number;
  total: number;
  cartId: string;
  serviceOrderId: string | null;
}

/** The order as the shop stored it, by its number (null when there is none). */
export function storedOrder(number: string): StoredOrder | null {
  const db = new Database(STACK.databaseFile, { readonly: true });
  try {
    return (
      (db
        .prepare(
          `SELECT number, status, currency, price, tax, shippingPrice, tradeInDiscount, total,
            cartId, serviceOrderId FROM "Order" WHERE number = ?`,
        )
        .get(number) as StoredOrder | undefined) ?? null
    );
  } finally {
    db.close();
  }
}
