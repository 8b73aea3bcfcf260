// The test shop's own tables, one definition per dialect: carts and their lines, orders (with
// the integration's columns spread in, as an integrator's shop does) and their lines.
import {
  integer as pgInteger,
  primaryKey as pgPrimaryKey,
  pgTable,
  text as pgText,
  timestamp,
} from "drizzle-orm/pg-core";
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { serviceOrderColumns as pgServiceOrderColumns } from "../pg/schema.js";
import { serviceOrderColumns } from "../sqlite/schema.js";

const pgAt = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const pgShop = {
  customers: pgTable("customers", {
    id: pgText("id").primaryKey(),
    email: pgText("email").notNull().unique(),
    givenName: pgText("given_name").notNull(),
    familyName: pgText("family_name").notNull(),
    /** JSON: the contract Address, or null */
    address: pgText("address"),
  }),
  carts: pgTable("carts", {
    id: pgText("id").primaryKey(),
    sessionId: pgText("session_id").notNull(),
    checkedOutAt: pgAt("checked_out_at"),
    createdAt: pgAt("created_at").notNull().defaultNow(),
  }),
  cartLines: pgTable(
    "cart_lines",
    {
      cartId: pgText("cart_id").notNull(),
      productId: pgText("product_id").notNull(),
      quantity: pgInteger("quantity").notNull(),
    },
    (t) => [pgPrimaryKey({ columns: [t.cartId, t.productId] })],
  ),
  orders: pgTable("orders", {
    id: pgText("id").primaryKey(),
    number: pgText("number").notNull().unique(),
    email: pgText("email").notNull(),
    shippingMethod: pgText("shipping_method").notNull(),
    ...pgServiceOrderColumns(),
  }),
  orderLines: pgTable(
    "order_lines",
    {
      orderId: pgText("order_id").notNull(),
      productId: pgText("product_id").notNull(),
      name: pgText("name").notNull(),
      description: pgText("description").notNull(),
      url: pgText("url").notNull(),
      quantity: pgInteger("quantity").notNull(),
      price: pgInteger("price").notNull(),
      tax: pgInteger("tax").notNull(),
    },
    (t) => [pgPrimaryKey({ columns: [t.orderId, t.productId] })],
  ),
};

const at = (name: string) => integer(name, { mode: "timestamp_ms" });

export const sqliteShop = {
  customers: sqliteTable("customers", {
    id: text("id").primaryKey(),
    email: text("email").notNull().unique(),
    givenName: text("given_name").notNull(),
    familyName: text("family_name").notNull(),
    /** JSON: the contract Address, or null */
    address: text("address"),
  }),
  carts: sqliteTable("carts", {
    id: text("id").primaryKey(),
    sessionId: text("session_id").notNull(),
    checkedOutAt: at("checked_out_at"),
    createdAt: at("created_at").notNull(),
  }),
  cartLines: sqliteTable(
    "cart_lines",
    {
      cartId: text("cart_id").notNull(),
      productId: text("product_id").notNull(),
      quantity: integer("quantity").notNull(),
    },
    (t) => [primaryKey({ columns: [t.cartId, t.productId] })],
  ),
  orders: sqliteTable("orders", {
    id: text("id").primaryKey(),
    number: text("number").notNull().unique(),
    email: text("email").notNull(),
    shippingMethod: text("shipping_method").notNull(),
    ...serviceOrderColumns(),
  }),
  orderLines: sqliteTable(
    "order_lines",
    {
      orderId: text("order_id").notNull(),
      productId: text("product_id").notNull(),
      name: text("name").notNull(),
      description: text("description").notNull(),
      url: text("url").notNull(),
      quantity: integer("quantity").notNull(),
      price: integer("price").notNull(),
      tax: integer("tax").notNull(),
    },
    (t) => [primaryKey({ columns: [t.orderId, t.productId] })],
  ),
};
