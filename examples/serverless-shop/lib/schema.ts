import { serviceOrderColumns } from "@service-integration/drizzle-adapter/pg";
import { boolean, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

// ONE PostgreSQL database, three owners, one schema module drizzle-kit generates drizzle/ from:
// the integration's tables (re-exported from the adapter), Better Auth's (its Drizzle adapter's
// four: user, session, account, verification) and the shop's own. Money: integer cents.
export * from "@service-integration/drizzle-adapter/pg";

// --- Better Auth's tables (the core schema its Drizzle adapter reads; names as its docs give) --
export const user = pgTable("user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: timestamp("created_at").notNull().defaultNow(),
  updatedAt: timestamp("updated_at").notNull().defaultNow(),
});

export const session = pgTable("session", {
  id: text("id").primaryKey(),
  expiresAt: timestamp("expires_at").notNull(),
  token: text("token").notNull().unique(),
  createdAt: timestamp("created_at").notNull().defaultNow(),
  updatedAt: timestamp("updated_at").notNull().defaultNow(),
  ipAddress: text("ip_address"),
  userAgent: text("user_agent"),
  userId: text("user_id")
    .notNull()
    .references(() => user.id, { onDelete: "cascade" }),
});

export const account = pgTable("account", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull(),
  providerId: text("provider_id").notNull(),
  userId: text("user_id")
    .notNull()
    .references(() => user.id, { onDelete: "cascade" }),
  accessToken: text("access_token"),
  refreshToken: text("refresh_token"),
  idToken: text("id_token"),
  accessTokenExpiresAt: timestamp("access_token_expires_at"),
  refreshTokenExpiresAt: timestamp("refresh_token_expires_at"),
  scope: text("scope"),
  password: text("password"),
  createdAt: timestamp("created_at").notNull().defaultNow(),
  updatedAt: timestamp("updated_at").notNull().defaultNow(),
});

export const verification = pgTable("verification", {
  id: text("id").primaryKey(),
  identifier: text("identifier").notNull(),
  value: text("value").notNull(),
  expiresAt: timestamp("expires_at").notNull(),
  createdAt: timestamp("created_at").notNull().defaultNow(),
  updatedAt: timestamp("updated_at").notNull().defaultNow(),
});

// --- The shop's own tables --------------------------------------------------------------------
export const products = pgTable("products", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull(),
  /** unit price before tax */
  price: integer("price").notNull(),
  /** unit tax */
  tax: integer("tax").notNull(),
});

export const carts = pgTable("carts", {
  id: text("id").primaryKey(),
  sessionId: text("session_id").notNull(),
  /** The session's id while the cart is open, null once checked out: one open cart per session. */
  openSessionId: text("open_session_id").unique(),
  /** The signed-in customer's id (Better Auth's user), null for a guest's cart. */
  customerId: text("customer_id"),
  /** When a line was last added: the least recently changed guest carts go first past the cap. */
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const cartLines = pgTable(
  "cart_lines",
  {
    cartId: text("cart_id").notNull(),
    productId: text("product_id").notNull(),
    quantity: integer("quantity").notNull(),
  },
  (t) => [primaryKey({ columns: [t.cartId, t.productId] })],
);

export const orders = pgTable("orders", {
  id: text("id").primaryKey(),
  number: text("number").notNull().unique(),
  email: text("email").notNull(),
  /** JSON: the checkout's details (addresses, delivery method) */
  details: text("details").notNull(),
  ...serviceOrderColumns(),
});

export const orderLines = pgTable(
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

/** The card stand-in's confirmations (lib/card/): what its "processor" confirmed, once each; a
 *  card order is placed only against one of these, for its exact amount, and uses it up. */
export const cardPayments = pgTable("card_payments", {
  id: text("id").primaryKey(),
  sessionId: text("session_id").notNull(),
  amount: integer("amount").notNull(),
  currency: text("currency").notNull(),
  /** The order the payment paid for; null until the shop placed it. */
  orderId: text("order_id").unique(),
  createdAt: timestamp("created_at").notNull().defaultNow(),
});
