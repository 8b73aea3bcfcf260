import { boolean, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// The integration's own tables on PostgreSQL (shop-ports.ts of @service-integration/kit names
// the unique keys each port relies on; each is declared here, so the database enforces it).
// Every table is named `service_…`, so it sits beside the shop's own tables without a clash.
// The SQLite schema (../sqlite/schema.ts) has the same tables, columns and keys.

/** A point in time, as a JavaScript Date (timestamptz: the instants compare across zones). */
const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** The service's OAuth tokens, one row per API user ("default"); the secrets are sealed
 *  (the kit's token-sealing: AES-256-GCM, the row and field bound in). Contract: Authentication. */
export const serviceTokens = pgTable("service_tokens", {
  id: text("id").primaryKey(),
  accessToken: text("access_token").notNull(),
  refreshToken: text("refresh_token").notNull(),
  userId: text("user_id").notNull(),
  merchantId: text("merchant_id").notNull(),
  scope: text("scope").notNull(),
  accessExpiresAt: at("access_expires_at").notNull(),
  updatedAt: at("updated_at").notNull().defaultNow(),
});

/** Leases shared by every server instance ("service-token-renewal:default"): taken by one
 *  conditional upsert, lost by a holder that dies when `expiresAt` passes. */
export const serviceLeases = pgTable("service_leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: at("expires_at").notNull(),
});

/** Service Pay checkout details kept per cart when payment starts (contract: Purchase data;
 *  Events: the webhook-mode order is made from them). Unique key: the cart id. */
export const serviceCheckouts = pgTable("service_checkouts", {
  cartId: text("cart_id").primaryKey(),
  sessionId: text("session_id").notNull(),
  customerId: text("customer_id"),
  email: text("email").notNull(),
  /** JSON: the contract Address */
  billing: text("billing").notNull(),
  /** JSON: the contract Address */
  shipping: text("shipping").notNull(),
  shippingMethod: text("shipping_method").notNull(),
  valuationState: text("valuation_state"),
  valuationItemId: text("valuation_item_id"),
  /** cents */
  valuationValue: integer("valuation_value"),
  valuationCurrency: text("valuation_currency"),
  valuationNote: text("valuation_note"),
  /** cents: what purchase_data answered while the payment was open (KeptCheckout.asked) */
  askedAmount: integer("asked_amount"),
  askedCurrency: text("asked_currency"),
  createdAt: at("created_at").notNull().defaultNow(),
  /** when the details were last kept: KeptCheckout.keptAt */
  updatedAt: at("updated_at").notNull().defaultNow(),
});

/** Every order notification with a valid signature, as received (contract: Events › Webhook).
 *  Unique key: `dedupe_key`, so a delivery repeated at once is stored, and applied, once. */
export const serviceNotifications = pgTable(
  "service_notifications",
  {
    id: text("id").primaryKey(),
    dedupeKey: text("dedupe_key").notNull().unique(),
    notificationId: text("notification_id"),
    event: text("event"),
    serviceOrderId: text("service_order_id"),
    cartId: text("cart_id"),
    status: text("status").notNull(),
    /** cents */
    amount: integer("amount"),
    currency: text("currency"),
    /** cents */
    tradeInDiscount: integer("trade_in_discount"),
    customerId: text("customer_id"),
    /** "flat" or "data" */
    form: text("form").notNull(),
    /** the raw body, for the back office and support */
    body: text("body").notNull(),
    /** stored | early | applied | recorded | held | conflict (shop-ports.ts NotificationOutcome) */
    outcome: text("outcome").notNull().default("early"),
    orderId: text("order_id"),
    receivedAt: at("received_at").notNull().defaultNow(),
    appliedAt: at("applied_at"),
  },
  (t) => [
    index("service_notifications_cart_order_idx").on(t.cartId, t.orderId),
    index("service_notifications_service_order_idx").on(t.serviceOrderId),
    index("service_notifications_order_idx").on(t.orderId),
    index("service_notifications_notification_idx").on(t.notificationId),
    // the stored-but-unapplied rows the sweeps read, oldest first
    index("service_notifications_outcome_received_idx").on(t.outcome, t.receivedAt),
  ],
);

/** register-purchase of one card order with a trade-in (contract: POST /register-purchase),
 *  retried until final. Unique key: `order_id`, so a purchase is never registered twice. */
export const serviceTradeInRegistrations = pgTable(
  "service_trade_in_registrations",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id").notNull().unique(),
    /** the session hash (HMAC), never the raw session id */
    sessionHash: text("session_hash").notNull(),
    /** Base64 of the contract Cart's JSON, exactly as sent */
    cart: text("cart").notNull(),
    /** cents */
    orderAmount: integer("order_amount").notNull(),
    customerId: text("customer_id"),
    /** queued | registered | not_applied | no_trade_in */
    status: text("status").notNull(),
    precheck: boolean("precheck").notNull().default(true),
    reason: text("reason").notNull().default(""),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error").notNull().default(""),
    /** the last attempt found the service unreachable (no connection, no answer in time) */
    unreachable: boolean("unreachable").notNull().default(false),
    nextAttemptAt: at("next_attempt_at"),
    response: text("response").notNull().default(""),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [index("service_trade_in_registrations_due_idx").on(t.status, t.nextAttemptAt)],
);

/** The trade-in id the session's browser last saw accepted (the SDK's valuation event). */
export const serviceSessionTradeIns = pgTable("service_session_trade_ins", {
  sessionId: text("session_id").primaryKey(),
  tradeInId: text("trade_in_id").notNull(),
  seenAt: at("seen_at").notNull().defaultNow(),
});

/** Each change of an order's status, written with the change (statusHistory, heldBecause). */
export const serviceOrderHistory = pgTable(
  "service_order_history",
  {
    seq: integer("seq").primaryKey().generatedAlwaysAsIdentity(),
    orderId: text("order_id").notNull(),
    from: text("from_status"),
    to: text("to_status").notNull(),
    /** shop | admin | service */
    source: text("source").notNull(),
    note: text("note").notNull().default(""),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [index("service_order_history_order_idx").on(t.orderId, t.seq)],
);

/** The integration inspector's entries (the kit's integration-log), pruned after a day. */
export const serviceIntegrationLog = pgTable(
  "service_integration_log",
  {
    seq: integer("seq").primaryKey().generatedAlwaysAsIdentity(),
    key: text("key").notNull(),
    at: at("at").notNull(),
    /** api | callback | webhook | step */
    kind: text("kind").notNull(),
    label: text("label").notNull(),
    status: integer("status"),
    ok: boolean("ok").notNull(),
    durationMs: integer("duration_ms"),
    detail: text("detail").notNull().default(""),
    expected: text("expected"),
  },
  (t) => [
    index("service_integration_log_key_idx").on(t.key, t.seq),
    index("service_integration_log_at_idx").on(t.at),
  ],
);

/**
 * The columns the integration needs on the shop's OWN orders table: spread them into its
 * definition, `pgTable("orders", { id: text("id").primaryKey(), number: …, ...serviceOrderColumns() })`.
 * Unique keys: `cart_id` (one order per cart) and `service_order_id` (one order per service
 * order): shop-ports.ts relies on both. Money in integer cents.
 */
export function serviceOrderColumns() {
  return {
    /** ShopOrder.cartId; unique: one order per cart. */
    cartId: text("cart_id").notNull().unique(),
    /** ShopOrder.serviceOrderId; unique: one order per service order. */
    serviceOrderId: text("service_order_id").unique(),
    /** ShopOrder.sessionId. */
    sessionId: text("session_id").notNull(),
    /** ShopOrder.customerId; null for a guest order. */
    customerId: text("customer_id"),
    /** ShopOrder.status, in the shop's names. */
    status: text("status").notNull(),
    /** ShopOrder.paymentMethod: `service_pay` or the shop's own. */
    paymentMethod: text("payment_method").notNull(),
    /** ShopOrder.currency. */
    currency: text("currency").notNull(),
    /** ShopOrder.price, integer cents. */
    price: integer("price").notNull(),
    /** ShopOrder.tax, integer cents. */
    tax: integer("tax").notNull(),
    /** ShopOrder.shippingPrice, integer cents. */
    shippingPrice: integer("shipping_price").notNull(),
    /** The cart-level discounts' sum (the kit's ShopOrder.discountTotal: promotion codes). */
    discountTotal: integer("discount_total").notNull().default(0),
    /** ShopOrder.tradeInDiscount, integer cents (default 0). */
    tradeInDiscount: integer("trade_in_discount").notNull().default(0),
    /** ShopOrder.total, integer cents. */
    total: integer("total").notNull(),
    /** ShopOrder.tradeInStatus; null for an order with no registration. */
    tradeInStatus: text("trade_in_status"),
    /** ShopOrder.tradeInMessage; null when there is nothing to say. */
    tradeInMessage: text("trade_in_message"),
    /** AcceptedValuation.valuationState; null when never looked up. */
    valuationState: text("valuation_state"),
    /** AcceptedValuation.valuationItemId. */
    valuationItemId: text("valuation_item_id"),
    /** AcceptedValuation.valuationValue, integer cents. */
    valuationValue: integer("valuation_value"),
    /** AcceptedValuation.valuationCurrency. */
    valuationCurrency: text("valuation_currency"),
    /** AcceptedValuation.valuationNote. */
    valuationNote: text("valuation_note"),
    /** When the order was created (default: now): a session's latest orders by it. */
    createdAt: at("created_at").notNull().defaultNow(),
  };
}

/** The integration's tables, for drizzle-kit and `drizzle(…, { schema })`. */
export const serviceSchema = {
  serviceTokens,
  serviceLeases,
  serviceCheckouts,
  serviceNotifications,
  serviceTradeInRegistrations,
  serviceSessionTradeIns,
  serviceOrderHistory,
  serviceIntegrationLog,
};
