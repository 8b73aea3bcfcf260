// The integration's tables on SQLite, as SQL: Kysely has no schema language, so this is
// what a shop puts into its migrations (Kysely's Migrator, or any other tool) and what this
// package's tests create their databases from. Names and keys as ../schema.ts types them and
// as the other adapters name them, so a shop can move between adapters without a migration.
// Times are integer milliseconds since the epoch (the adapter reads them as Date), flags 0/1;
// "now" is `unixepoch('subsec')`, SQLite 3.42 or later (better-sqlite3 12 bundles newer);
// money in integer cents.

/** CREATE statements of the integration's eight `service_…` tables and their indexes. */
export const serviceTablesSql: readonly string[] = [
  `CREATE TABLE service_tokens (
  id text NOT NULL PRIMARY KEY,
  access_token text NOT NULL,
  refresh_token text NOT NULL,
  user_id text NOT NULL,
  merchant_id text NOT NULL,
  scope text NOT NULL,
  access_expires_at integer NOT NULL,
  updated_at integer NOT NULL DEFAULT (cast(unixepoch('subsec') * 1000 as integer))
)`,
  `CREATE TABLE service_leases (
  name text NOT NULL PRIMARY KEY,
  holder text NOT NULL,
  expires_at integer NOT NULL
)`,
  `CREATE TABLE service_checkouts (
  cart_id text NOT NULL PRIMARY KEY,
  session_id text NOT NULL,
  customer_id text,
  email text NOT NULL,
  billing text NOT NULL,
  shipping text NOT NULL,
  shipping_method text NOT NULL,
  valuation_state text,
  valuation_item_id text,
  valuation_value integer,
  valuation_currency text,
  valuation_note text,
  asked_amount integer,
  asked_currency text,
  created_at integer NOT NULL DEFAULT (cast(unixepoch('subsec') * 1000 as integer)),
  updated_at integer NOT NULL DEFAULT (cast(unixepoch('subsec') * 1000 as integer))
)`,
  `CREATE TABLE service_notifications (
  id text NOT NULL PRIMARY KEY,
  dedupe_key text NOT NULL UNIQUE,
  notification_id text,
  event text,
  service_order_id text,
  cart_id text,
  status text NOT NULL,
  amount integer,
  currency text,
  trade_in_discount integer,
  customer_id text,
  form text NOT NULL,
  body text NOT NULL,
  outcome text NOT NULL DEFAULT 'early',
  order_id text,
  received_at integer NOT NULL DEFAULT (cast(unixepoch('subsec') * 1000 as integer)),
  applied_at integer
)`,
  "CREATE INDEX service_notifications_cart_order_idx ON service_notifications (cart_id, order_id)",
  "CREATE INDEX service_notifications_service_order_idx ON service_notifications (service_order_id)",
  "CREATE INDEX service_notifications_order_idx ON service_notifications (order_id)",
  "CREATE INDEX service_notifications_notification_idx ON service_notifications (notification_id)",
  "CREATE INDEX service_notifications_outcome_received_idx ON service_notifications (outcome, received_at)",
  `CREATE TABLE service_trade_in_registrations (
  id text NOT NULL PRIMARY KEY,
  order_id text NOT NULL UNIQUE,
  session_hash text NOT NULL,
  cart text NOT NULL,
  order_amount integer NOT NULL,
  customer_id text,
  status text NOT NULL,
  precheck integer NOT NULL DEFAULT 1,
  reason text NOT NULL DEFAULT '',
  attempts integer NOT NULL DEFAULT 0,
  last_error text NOT NULL DEFAULT '',
  unreachable integer NOT NULL DEFAULT 0,
  next_attempt_at integer,
  response text NOT NULL DEFAULT '',
  created_at integer NOT NULL DEFAULT (cast(unixepoch('subsec') * 1000 as integer)),
  updated_at integer NOT NULL DEFAULT (cast(unixepoch('subsec') * 1000 as integer))
)`,
  "CREATE INDEX service_trade_in_registrations_due_idx ON service_trade_in_registrations (status, next_attempt_at)",
  `CREATE TABLE service_session_trade_ins (
  session_id text NOT NULL PRIMARY KEY,
  trade_in_id text NOT NULL,
  seen_at integer NOT NULL DEFAULT (cast(unixepoch('subsec') * 1000 as integer))
)`,
  `CREATE TABLE service_order_history (
  seq integer PRIMARY KEY AUTOINCREMENT,
  order_id text NOT NULL,
  from_status text,
  to_status text NOT NULL,
  source text NOT NULL,
  note text NOT NULL DEFAULT '',
  created_at integer NOT NULL DEFAULT (cast(unixepoch('subsec') * 1000 as integer))
)`,
  "CREATE INDEX service_order_history_order_idx ON service_order_history (order_id, seq)",
  `CREATE TABLE service_integration_log (
  seq integer PRIMARY KEY AUTOINCREMENT,
  key text NOT NULL,
  at integer NOT NULL,
  kind text NOT NULL,
  label text NOT NULL,
  status integer,
  ok integer NOT NULL,
  duration_ms integer,
  detail text NOT NULL DEFAULT '',
  expected text
)`,
  "CREATE INDEX service_integration_log_key_idx ON service_integration_log (key, seq)",
  "CREATE INDEX service_integration_log_at_idx ON service_integration_log (at)",
];

/** The integration's column definitions for the shop's OWN orders table, to write into its
 *  CREATE TABLE beside `id` and `number`: `CREATE TABLE orders (id text NOT NULL PRIMARY KEY, number
 *  text NOT NULL UNIQUE, …, ${serviceOrderColumnsSql})`. `cart_id` and `service_order_id` are
 *  unique: one order per cart, one per service order (shop-ports.ts relies on both). */
export const serviceOrderColumnsSql = `cart_id text NOT NULL UNIQUE,
  service_order_id text UNIQUE,
  session_id text NOT NULL,
  customer_id text,
  status text NOT NULL,
  payment_method text NOT NULL,
  currency text NOT NULL,
  price integer NOT NULL,
  tax integer NOT NULL,
  shipping_price integer NOT NULL,
  discount_total integer NOT NULL DEFAULT 0,
  trade_in_discount integer NOT NULL DEFAULT 0,
  total integer NOT NULL,
  trade_in_status text,
  trade_in_message text,
  valuation_state text,
  valuation_item_id text,
  valuation_value integer,
  valuation_currency text,
  valuation_note text,
  created_at integer NOT NULL DEFAULT (cast(unixepoch('subsec') * 1000 as integer))`;

/** The columns that hold times (integer ms), camelCase: the adapter reads them as Date. */
export const timeColumns: ReadonlySet<string> = new Set([
  "accessExpiresAt",
  "updatedAt",
  "expiresAt",
  "createdAt",
  "receivedAt",
  "appliedAt",
  "nextAttemptAt",
  "seenAt",
  "at",
]);

/** The columns that hold flags (0/1), camelCase: the adapter reads them as boolean. */
export const flagColumns: ReadonlySet<string> = new Set(["precheck", "unreachable", "ok"]);
