import { serviceOrderColumns } from "@service-integration/drizzle-adapter/sqlite";
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

// The shop's tables (Drizzle, SQLite) and, re-exported, the integration's own (the adapter's
// schema): drizzle-kit generates the migrations in drizzle/ from this one module. Money: cents.
export * from "@service-integration/drizzle-adapter/sqlite";

export const products = sqliteTable("products", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull(),
  /** unit price before tax */
  price: integer("price").notNull(),
  /** unit tax */
  tax: integer("tax").notNull(),
});

export const customers = sqliteTable("customers", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  givenName: text("given_name").notNull(),
  familyName: text("family_name").notNull(),
  passwordHash: text("password_hash").notNull(),
});

export const carts = sqliteTable("carts", {
  id: text("id").primaryKey(),
  sessionId: text("session_id").notNull(),
  /** The session's id while the cart is open, null once checked out: one open cart per session. */
  openSessionId: text("open_session_id").unique(),
});

export const cartLines = sqliteTable(
  "cart_lines",
  {
    cartId: text("cart_id").notNull(),
    productId: text("product_id").notNull(),
    quantity: integer("quantity").notNull(),
  },
  (t) => [primaryKey({ columns: [t.cartId, t.productId] })],
);

export const orders = sqliteTable("orders", {
  id: text("id").primaryKey(),
  number: text("number").notNull().unique(),
  email: text("email").notNull(),
  /** JSON: the checkout's details (addresses, delivery method) */
  details: text("details").notNull(),
  ...serviceOrderColumns(),
});

export const orderLines = sqliteTable(
  "order_lines",
  {
    orderId: text("order_id").notNull(),
    productId: text("product_id").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    url: text("url").notNull(),
    quantity: integer("quantity").notNull(),
    price: integer("price").notNull(),
    /** the line's tax (unit tax × quantity), as the contract's cart item */
    tax: integer("tax").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.productId] })],
);
