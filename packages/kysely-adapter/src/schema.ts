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
  /** When the row was last written (default: now). */
  updatedAt: Generated<Date>;
}

/** Leases shared by every server instance ("service-token-renewal:default"). */
export interface ServiceLeasesTable {
  /** The lease's name, its key. */
  name: string;
  /** The instance holding it (a random id per process). */
  holder: string;
  /** When it lapses: another holder may take it from then. */
  expiresAt: Date;
}

/** Service Pay checkout details kept per cart when payment starts. Key: the cart id. */
export interface ServiceCheckoutsTable extends Omit<CheckoutRow, "updatedAt"> {
  /** When the cart's details were first kept (default: now). */
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
  /** NotificationRow.orderId: null while it is tied to no order. */
  orderId: string | null;
  /** NotificationRow.receivedAt (default: now). */
  receivedAt: Generated<Date>;
  /** When it was tied to its order; null until then. */
  appliedAt: Date | null;
}

/** register-purchase of one card order with a trade-in, retried until final. Key: `orderId`. */
export interface ServiceTradeInRegistrationsTable
  extends Omit<RegistrationRow, "precheck" | "attempts" | "unreachable"> {
  /** TradeInRegistration.precheck (default: true). */
  precheck: Generated<boolean>;
  /** TradeInRegistration.attempts (default: 0). */
  attempts: Generated<number>;
  /** TradeInRegistration.unreachable (default: false). */
  unreachable: Generated<boolean>;
  /** Why it is not registered: TradeInRegistrationStore.finish's `reason` (default: empty). */
  reason: Generated<string>;
  /** The last failure in words: finish's `lastError` (default: empty). */
  lastError: Generated<string>;
  /** The service's answer once registered: finish's `response` (default: empty). */
  response: Generated<string>;
  /** When the row was queued (default: now). */
  createdAt: Generated<Date>;
  /** When it was last claimed or finished (default: now). */
  updatedAt: Generated<Date>;
}

/** The trade-in id the session's browser last saw accepted. Key: the session id. */
export interface ServiceSessionTradeInsTable {
  /** The shopper's raw session id, the key. */
  sessionId: string;
  /** The trade-in item's id (contract: Trade-in item) the browser last saw accepted. */
  tradeInId: string;
  /** When it saw it (default: now). */
  seenAt: Generated<Date>;
}

/** Each change of an order's status, written with the change (the kit's HistoryRow). */
export interface ServiceOrderHistoryTable {
  /** The line's increasing number (an identity column): an order's lines in their order. */
  seq: Generated<number>;
  /** HistoryRow.orderId. */
  orderId: string;
  /** HistoryRow.from. */
  fromStatus: string | null;
  /** HistoryRow.to. */
  toStatus: string;
  /** shop | admin | service */
  source: string;
  /** HistoryRow.note (default: empty). */
  note: Generated<string>;
  /** When the change was written (default: now). */
  createdAt: Generated<Date>;
}

/** The integration inspector's entries, pruned after a day. */
export interface ServiceIntegrationLogTable extends LogRow {
  /** IntegrationEntry.seq: the store's own increasing number (an identity column). */
  seq: Generated<number>;
}

/** The integration's columns of the shop's OWN orders table (beside its `id` and `number`):
 *  `cart_id` and `service_order_id` unique. Money in integer cents. */
export interface ServiceOrderColumns
  extends Omit<ShopOrder, "id" | "number" | "discountTotal" | "tradeInDiscount"> {
  /** ShopOrder.discountTotal, integer cents (default: 0). */
  discountTotal: Generated<number>;
  /** ShopOrder.tradeInDiscount, integer cents (default: 0). */
  tradeInDiscount: Generated<number>;
  /** When the shop created the order (default: now): a session's latest orders by it. */
  createdAt: Generated<Date>;
}

/** The integration's tables, camelCase (Kysely's CamelCasePlugin over the snake_case SQL). */
export interface ServiceDatabase {
  /** Table `service_tokens`. */
  serviceTokens: ServiceTokensTable;
  /** Table `service_leases`. */
  serviceLeases: ServiceLeasesTable;
  /** Table `service_checkouts`. */
  serviceCheckouts: ServiceCheckoutsTable;
  /** Table `service_notifications`. */
  serviceNotifications: ServiceNotificationsTable;
  /** Table `service_trade_in_registrations`. */
  serviceTradeInRegistrations: ServiceTradeInRegistrationsTable;
  /** Table `service_session_trade_ins`. */
  serviceSessionTradeIns: ServiceSessionTradeInsTable;
  /** Table `service_order_history`. */
  serviceOrderHistory: ServiceOrderHistoryTable;
  /** Table `service_integration_log`. */
  serviceIntegrationLog: ServiceIntegrationLogTable;
}

/** The adapter's view: the integration's tables and the shop's orders (its `id`, `number` and
 *  the integration's columns), under the name "orders" whatever the shop calls the table. */
export interface AdapterDatabase extends ServiceDatabase {
  /** The shop's orders table, whatever its name (the adapter's `orders` option). */
  orders: ServiceOrderColumns & {
    /** ShopOrder.id: the orders table's key. */
    id: string;
    /** ShopOrder.number. */
    number: string;
  };
}
