// The integration's tables on PostgreSQL, as SQL: Kysely has no schema language, so this is
// what a shop puts into its migrations (Kysely's Migrator, or any other tool) and what this
// package's tests create their databases from. Names and keys as ../schema.ts types them and
// as the other adapters name them, so a shop can move between adapters without a migration.
// Times are timestamptz (instants compare across zones); money in integer cents.

/** CREATE statements of the integration's eight `service_…` tables and their indexes. */
export const serviceTablesSql: readonly string[] = [
  `CREATE TABLE service_tokens (
  id text PRIMARY KEY,
  access_token text NOT NULL,
  refresh_token text NOT NULL,
  user_id text NOT NULL,
  merchant_id text NOT NULL,
  scope text NOT NULL,
  access_expires_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
)`,
  `CREATE TABLE service_leases (
  name text PRIMARY KEY,
  holder text NOT NULL,
  expires_at timestamptz NOT NULL
)`,
  `CREATE TABLE service_checkouts (
  cart_id text PRIMARY KEY,
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
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
)`,
  `CREATE TABLE service_notifications (
  id text PRIMARY KEY,
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
  received_at timestamptz NOT NULL DEFAULT now(),
  applied_at timestamptz
)`,
  "CREATE INDEX service_notifications_cart_order_idx ON service_notifications (cart_id, order_id)",
  "CREATE INDEX service_notifications_service_order_idx ON service_notifications (service_order_id)",
  "CREATE INDEX service_notifications_order_idx ON service_notifications (order_id)",
  "CREATE INDEX service_notifications_notification_idx ON service_notifications (notification_id)",
  "CREATE INDEX service_notifications_outcome_received_idx ON service_notifications (outcome, received_at)",
  `CREATE TABLE service_trade_in_registrations (
  id text PRIMARY KEY,
  order_id text NOT NULL UNIQUE,
  session_hash text NOT NULL,
  cart text NOT NULL,
  order_amount integer NOT NULL,
  customer_id text,
  status text NOT NULL,
  precheck boolean NOT NULL DEFAULT true,
  reason text NOT NULL DEFAULT '',
  attempts integer NOT NULL DEFAULT 0,
  last_error text NOT NULL DEFAULT '',
  unreachable boolean NOT NULL DEFAULT false,
  next_attempt_at timestamptz,
  response text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
)`,
  "CREATE INDEX service_trade_in_registrations_due_idx ON service_trade_in_registrations (status, next_attempt_at)",
  `CREATE TABLE service_session_trade_ins (
  session_id text PRIMARY KEY,
  trade_in_id text NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now()
)`,
  `CREATE TABLE service_order_history (
  seq integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  order_id text NOT NULL,
  from_status text,
  to_status text NOT NULL,
  source text NOT NULL,
  note text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
)`,
  "CREATE INDEX service_order_history_order_idx ON service_order_history (order_id, seq)",
  `CREATE TABLE service_integration_log (
  seq integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  key text NOT NULL,
  at timestamptz NOT NULL,
  kind text NOT NULL,
  label text NOT NULL,
  status integer,
  ok boolean NOT NULL,
  duration_ms integer,
  detail text NOT NULL DEFAULT '',
  expected text
)`,
  "CREATE INDEX service_integration_log_key_idx ON service_integration_log (key, seq)",
  "CREATE INDEX service_integration_log_at_idx ON service_integration_log (at)",
];

/** The integration's column definitions for the shop's OWN orders table, to write into its
 *  CREATE TABLE beside `id` and `number`: `CREATE TABLE orders (id text PRIMARY KEY, number
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
  created_at timestamptz NOT NULL DEFAULT now()`;
