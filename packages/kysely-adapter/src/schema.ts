// The integration's tables as Kysely sees them through its CamelCasePlugin (the adapter's own
// view of the shop's database: `access_expires_at` reads as `accessExpiresAt`). The same tables,
// columns and keys as the other adapters (the kit's shop-ports.ts names the keys each port
// relies on); their SQL is ./pg/schema.ts and ./sqlite/schema.ts. Times are Date and flags
// boolean on both databases: on SQLite (integer milliseconds, 0/1) the adapter converts them.
import type {
  CheckoutRow,
  LogRow,
  NewNotificationRow,
  RegistrationRow,
  ShopOrder,
  TokenRow,
} from "@service-integration/kit";
import type { Generated } from "kysely";

// Each table is the kit's row type (service-rows.ts) with the columns the adapter leaves to the
// database (its defaults: Generated) and those it keeps beyond what the kit reads.

/** The service's OAuth tokens, one row per API user ("default"), the secrets sealed. */
export interface ServiceTokensTable extends TokenRow {
  updatedAt: Generated<Date>;
}

/** Leases shared by every server instance ("service-token-renewal:default"). */
export interface ServiceLeasesTable {
  name: string;
  holder: string;
  expiresAt: Date;
}

/** Service Pay checkout details kept per cart when payment starts. Key: the cart id. */
export interface ServiceCheckoutsTable extends Omit<CheckoutRow, "updatedAt"> {
  createdAt: Generated<Date>;
  /** when the details were last kept: KeptCheckout.keptAt */
  updatedAt: Generated<Date>;
}

/** Every order notification with a valid signature, as received. Key: `dedupeKey`. */
export interface ServiceNotificationsTable
  extends Omit<NewNotificationRow, "form" | "outcome" | "receivedAt"> {
  /** "flat" or "data" */
  form: string;
  /** stored | early | applied | recorded | held | conflict (the kit's NotificationOutcome) */
  outcome: Generated<string>;
  orderId: string | null;
  receivedAt: Generated<Date>;
  appliedAt: Date | null;
}

/** register-purchase of one card order with a trade-in, retried until final. Key: `orderId`. */
export interface ServiceTradeInRegistrationsTable
  extends Omit<RegistrationRow, "precheck" | "attempts" | "unreachable"> {
  precheck: Generated<boolean>;
  attempts: Generated<number>;
  unreachable: Generated<boolean>;
  reason: Generated<string>;
  lastError: Generated<string>;
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

/** Each change of an order's status, written with the change (the kit's HistoryRow). */
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
export interface ServiceIntegrationLogTable extends LogRow {
  seq: Generated<number>;
}

/** The integration's columns of the shop's OWN orders table (beside its `id` and `number`):
 *  `cart_id` and `service_order_id` unique. Money in integer cents. */
export interface ServiceOrderColumns
  extends Omit<ShopOrder, "id" | "number" | "discountTotal" | "tradeInDiscount"> {
  discountTotal: Generated<number>;
  tradeInDiscount: Generated<number>;
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
