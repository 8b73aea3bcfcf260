// The integration's tables as Kysely sees them through its CamelCasePlugin (the adapter's own
// view of the shop's database: `access_expires_at` reads as `accessExpiresAt`). The same tables,
// columns and keys as the other adapters (the kit's shop-ports.ts names the keys each port
// relies on); their SQL is ./pg/schema.ts and ./sqlite/schema.ts. Times are Date and flags
// boolean on both databases: on SQLite (integer milliseconds, 0/1) the adapter converts them.
import type { AcceptedValuation, TradeInRegistration } from "@service-integration/kit";
import type { Generated } from "kysely";

/** The service's OAuth tokens, one row per API user ("default"), the secrets sealed. */
export interface ServiceTokensTable {
  id: string;
  accessToken: string;
  refreshToken: string;
  userId: string;
  merchantId: string;
  scope: string;
  accessExpiresAt: Date;
  updatedAt: Generated<Date>;
}

/** Leases shared by every server instance ("service-token-renewal:default"). */
export interface ServiceLeasesTable {
  name: string;
  holder: string;
  expiresAt: Date;
}

/** Service Pay checkout details kept per cart when payment starts. Key: the cart id. */
export interface ServiceCheckoutsTable extends AcceptedValuation {
  cartId: string;
  sessionId: string;
  customerId: string | null;
  email: string;
  /** JSON: the contract Address */
  billing: string;
  /** JSON: the contract Address */
  shipping: string;
  shippingMethod: string;
  createdAt: Generated<Date>;
  /** when the details were last kept: KeptCheckout.keptAt */
  updatedAt: Generated<Date>;
}

/** Every order notification with a valid signature, as received. Key: `dedupeKey`. */
export interface ServiceNotificationsTable {
  id: string;
  dedupeKey: string;
  notificationId: string | null;
  event: string | null;
  serviceOrderId: string | null;
  cartId: string | null;
  status: string;
  amount: number | null;
  currency: string | null;
  tradeInDiscount: number | null;
  customerId: string | null;
  /** "flat" or "data" */
  form: string;
  body: string;
  /** stored | early | applied | recorded | held | conflict (the kit's NotificationOutcome) */
  outcome: Generated<string>;
  orderId: string | null;
  receivedAt: Generated<Date>;
  appliedAt: Date | null;
}

/** register-purchase of one card order with a trade-in, retried until final. Key: `orderId`. */
export interface ServiceTradeInRegistrationsTable {
  id: string;
  orderId: string;
  /** the session hash (HMAC), never the raw session id */
  sessionHash: string;
  /** Base64 of the contract Cart's JSON, exactly as sent */
  cart: string;
  orderAmount: number;
  customerId: string | null;
  status: TradeInRegistration["status"];
  precheck: Generated<boolean>;
  reason: Generated<string>;
  attempts: Generated<number>;
  lastError: Generated<string>;
  unreachable: Generated<boolean>;
  nextAttemptAt: Date | null;
  response: Generated<string>;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

/** The trade-in id the session's browser last saw accepted. Key: the session id. */
export interface ServiceSessionTradeInsTable {
  sessionId: string;
  tradeInId: string;
  seenAt: Generated<Date>;
}

/** Each change of an order's status, written with the change. */
export interface ServiceOrderHistoryTable {
  seq: Generated<number>;
  orderId: string;
  fromStatus: string | null;
  toStatus: string;
  /** shop | admin | service */
  source: string;
  note: Generated<string>;
  createdAt: Generated<Date>;
}

/** The integration inspector's entries, pruned after a day. */
export interface ServiceIntegrationLogTable {
  seq: Generated<number>;
  key: string;
  at: Date;
  kind: string;
  label: string;
  status: number | null;
  ok: boolean;
  durationMs: number | null;
  detail: Generated<string>;
  expected: string | null;
}

/** The integration's columns of the shop's OWN orders table (beside its `id` and `number`):
 *  `cart_id` and `service_order_id` unique. Money in integer cents. */
export interface ServiceOrderColumns extends AcceptedValuation {
  cartId: string;
  serviceOrderId: string | null;
  sessionId: string;
  customerId: string | null;
  status: string;
  paymentMethod: string;
  currency: string;
  price: number;
  tax: number;
  shippingPrice: number;
  discountTotal: Generated<number>;
  tradeInDiscount: Generated<number>;
  total: number;
  tradeInStatus: string | null;
  tradeInMessage: string | null;
  createdAt: Generated<Date>;
}

/** The integration's tables, camelCase (Kysely's CamelCasePlugin over the snake_case SQL). */
export interface ServiceDatabase {
  serviceTokens: ServiceTokensTable;
  serviceLeases: ServiceLeasesTable;
  serviceCheckouts: ServiceCheckoutsTable;
  serviceNotifications: ServiceNotificationsTable;
  serviceTradeInRegistrations: ServiceTradeInRegistrationsTable;
  serviceSessionTradeIns: ServiceSessionTradeInsTable;
  serviceOrderHistory: ServiceOrderHistoryTable;
  serviceIntegrationLog: ServiceIntegrationLogTable;
}

/** The adapter's view: the integration's tables and the shop's orders (its `id`, `number` and
 *  the integration's columns), under the name "orders" whatever the shop calls the table. */
export interface AdapterDatabase extends ServiceDatabase {
  orders: ServiceOrderColumns & { id: string; number: string };
}
