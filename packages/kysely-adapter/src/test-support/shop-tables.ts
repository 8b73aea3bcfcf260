// The test shop's own tables, as SQL per database (carts and their lines, customers, orders with
// the integration's columns written in, as an integrator's CREATE TABLE does, and their lines),
// and their Kysely types (the shop's database is read through CamelCasePlugin, like the
// adapter's own view).
import type { ShopOrderItem } from "@service-integration/kit";
import type { Generated } from "kysely";
import type { ServiceOrderColumns } from "../schema.js";
import {
  pgServiceOrderColumnsSql,
  pgServiceTablesSql,
  sqliteServiceOrderColumnsSql,
  sqliteServiceTablesSql,
} from "../testing.js";

export interface ShopDatabase {
  customers: {
    id: string;
    email: string;
    givenName: string;
    familyName: string;
    /** JSON: the contract Address, or null */
    address: string | null;
  };
  /** Times: Date on PostgreSQL, milliseconds on SQLite (the shop's own choice of columns). */
  carts: {
    id: string;
    sessionId: string;
    checkedOutAt: Date | number | null;
    createdAt: Generated<Date | number>;
  };
  cartLines: { cartId: string; productId: string; quantity: number };
  orders: ServiceOrderColumns & {
    id: string;
    number: string;
    email: string;
    shippingMethod: string;
  };
  orderLines: ShopOrderItem & { orderId: string };
}

function shopSql(time: string, now: string, orderColumns: string): string[] {
  return [
    `CREATE TABLE customers (id text PRIMARY KEY, email text NOT NULL UNIQUE,
      given_name text NOT NULL, family_name text NOT NULL, address text)`,
    `CREATE TABLE carts (id text PRIMARY KEY, session_id text NOT NULL,
      checked_out_at ${time}, created_at ${time} NOT NULL DEFAULT ${now})`,
    `CREATE TABLE cart_lines (cart_id text NOT NULL, product_id text NOT NULL,
      quantity integer NOT NULL, PRIMARY KEY (cart_id, product_id))`,
    `CREATE TABLE orders (id text PRIMARY KEY, number text NOT NULL UNIQUE, email text NOT NULL,
      shipping_method text NOT NULL, ${orderColumns})`,
    `CREATE TABLE order_lines (order_id text NOT NULL, product_id text NOT NULL,
      name text NOT NULL, description text NOT NULL, url text NOT NULL, quantity integer NOT NULL,
      price integer NOT NULL, tax integer NOT NULL, PRIMARY KEY (order_id, product_id))`,
  ];
}

/** Every table of the test database: the integration's and the shop's. */
export const testDatabaseSql = {
  postgresql: [...pgServiceTablesSql, ...shopSql("timestamptz", "now()", pgServiceOrderColumnsSql)],
  sqlite: [
    ...sqliteServiceTablesSql,
    ...shopSql(
      "integer",
      "(cast(unixepoch('subsec') * 1000 as integer))",
      sqliteServiceOrderColumnsSql,
    ),
  ],
};
