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

function findOrder(where: "number" | "cartId", value: string): StoredOrder | null {
  const db = new Database(STACK.databaseFile, { readonly: true });
  try {
    return (
      (db
        .prepare(
          `SELECT number, status, currency, price, tax, shippingPrice, tradeInDiscount, total,
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
