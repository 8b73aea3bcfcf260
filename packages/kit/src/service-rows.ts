import type {
  AcceptedValuation,
  NotificationOutcome,
  ShopOrder,
  TradeInRegistration,
  TradeInRegistrationStore,
} from "./shop-ports.js";
import type { OrderNotification } from "./webhook-payload.js";

// The row-level store an adapter package implements with its ORM: reads and writes of the
// integration's own tables (and of the integration's columns of the shop's orders), the
// transaction, and the database's locks. Every rule (what happens in which order inside which
// transaction, leases, claims, idempotency, pruning) is the kit's, in service-adapter.ts, over
// this interface: an adapter maps rows, it decides nothing. Each method is one statement unless
// it says otherwise (what a write answers is not read); `q` is the adapter's handle (its database, or the transaction `transaction`
// gave), handed back to it as the kit got it.

/** The kept checkout row: the details as JSON text, the accepted valuation beside them. */
export interface CheckoutRow extends AcceptedValuation {
  /** The key: KeptCheckout.cartId. */
  cartId: string;
  /** KeptCheckout.sessionId. */
  sessionId: string;
  /** KeptCheckout.customerId: null for a guest. */
  customerId: string | null;
  /** CheckoutDetails.email. */
  email: string;
  /** JSON of the contract Address (CheckoutDetails.billing). */
  billing: string;
  /** JSON of the contract Address (CheckoutDetails.shipping). */
  shipping: string;
  /** CheckoutDetails.shippingMethod. */
  shippingMethod: string;
  /** KeptCheckout.keptAt; an asked-amount write matches on it as read. */
  updatedAt: Date;
  /** What purchase_data answered while the payment was open (KeptCheckout.asked): the Cart's
   *  total in cents and its currency; both null until then. */
  askedAmount: number | null;
  /** The currency of `askedAmount` (AskedAmount.currency); null with it. */
  askedCurrency: string | null;
}

/** A stored notification row. `customerId` is a column of the adapters that keep it. */
export interface NotificationRow extends Omit<OrderNotification, "form" | "customerId"> {
  /** The row's id (StoredNotification.id). */
  id: string;
  /** OrderNotification.form, as text. */
  form: string;
  /** OrderNotification.customerId, where the adapter keeps the column. */
  customerId?: string | null;
  /** The NotificationOutcome, as text. */
  outcome: string;
  /** The shop order it was tied to; null while none is. */
  orderId: string | null;
  /** When the webhook stored it: the order in which a cart's notifications apply. */
  receivedAt: Date;
}

/** A new notification row (outcome "stored" or "early", no order yet). */
export interface NewNotificationRow extends OrderNotification {
  /** The new row's id (NotificationRow.id). */
  id: string;
  /** "stored" or "early" (NotificationRow.outcome). */
  outcome: NotificationOutcome;
  /** NotificationRow.receivedAt. */
  receivedAt: Date;
}

/** The token row, its secrets sealed (TokenSealer) under `${id}:${field}`. */
export interface TokenRow {
  /** The API user's row ("default": one per API user). */
  id: string;
  /** StoredTokens.accessToken, sealed. */
  accessToken: string;
  /** StoredTokens.refreshToken, sealed. */
  refreshToken: string;
  /** StoredTokens.userId, sealed. */
  userId: string;
  /** StoredTokens.merchantId (not sealed: the SDK's public merchantId). */
  merchantId: string;
  /** StoredTokens.scope (not secret: kept as is). */
  scope: string;
  /** StoredTokens.accessExpiresAt. */
  accessExpiresAt: Date;
}

/** A register-purchase row as the kit writes it. */
export interface RegistrationRow extends TradeInRegistration {
  /** When the retry job may send it next (a lease moves it on); null once it is final. */
  nextAttemptAt: Date | null;
}

/** What finishing an attempt writes into a registration row (TradeInRegistrationStore.finish's
 *  result), with the time it is written. */
export type RegistrationResult = Parameters<TradeInRegistrationStore["finish"]>[1] & {
  /** When the result is written. */
  updatedAt: Date;
};

/** One line of an order's history. */
export interface HistoryRow {
  /** The shop order's id. */
  orderId: string;
  /** The status before the change, in the shop's names; null for a new order's first line. */
  from: string | null;
  /** The status after it, in the shop's names. */
  to: string;
  /** Who changed it (OrderChange.source: StatusSource). */
  source: string;
  /** At most 1,000 characters (the kit cuts it). */
  note: string;
}

/** One entry of the inspector's log. */
export interface LogRow {
  /** Whose log the entry is in (IntegrationLogStore.append's `key`). */
  key: string;
  /** IntegrationEntry.at, as a time. */
  at: Date;
  /** IntegrationEntry.kind. */
  kind: string;
  /** IntegrationEntry.label. */
  label: string;
  /** IntegrationEntry.status; null when it was not a call. */
  status: number | null;
  /** IntegrationEntry.ok. */
  ok: boolean;
  /** IntegrationEntry.durationMs; null when not timed. */
  durationMs: number | null;
  /** IntegrationEntry.detail; empty when there is none. */
  detail: string;
  /** IntegrationEntry.expected; null for an entry that is not an expected non-2xx answer. */
  expected: string | null;
}

/** The integration's columns of an order that an order change writes. */
export type OrderUpdate = Partial<
  Pick<
    ShopOrder,
    "status" | "tradeInDiscount" | "total" | "serviceOrderId" | "tradeInStatus" | "tradeInMessage"
  >
>;

/** Keys of the orders to lock and read (any of them matches; null or omitted: not a key). */
export interface OrderKeys {
  /** The shop order's id. */
  id?: string | null;
  /** The service's order id (contract: Order `order_id`). */
  serviceOrderId?: string | null;
  /** The checkout's cart id (contract: Order `cart_id`). */
  cartId?: string | null;
}

/**
 * The row-level store an adapter package implements with its ORM, `Q` being its query handle
 * (its database, or a transaction of it); createServiceAdapter turns it into every port that
 * belongs to the integration. Each method is one statement unless it says otherwise.
 */
export interface ServiceRowStore<Q> {
  // --- The transaction and the database's locks ---------------------------------------------
  /** Runs `fn` in one transaction at the database's default isolation (SQLite: BEGIN
   *  IMMEDIATE, the one write lock held from the start); rolls back when it throws. */
  transaction<T>(fn: (q: Q) => PromiseLike<T>): Promise<T>;
  /** Runs `fn` outside any transaction (SQLite on one connection: after the open one). */
  outside<T>(fn: (q: Q) => PromiseLike<T>): Promise<T>;
  /** The driver's unique-key violation (the kit answers it as ConcurrentWriteError). */
  isUniqueViolation(error: unknown): boolean;
  /**
   * The orders matching any of `keys`, LOCKED until the transaction `q` ends: PostgreSQL
   * `SELECT … FOR UPDATE`; SQLite holds its one write lock (take it with a write if the
   * transaction does not hold it yet). A second transaction waits here until the first commits.
   */
  lockedOrders(q: Q, keys: OrderKeys): PromiseLike<ShopOrder[]>;
  /**
   * Leases up to `limit` queued registrations due by `now` (every queued one with `all`), the
   * earliest first, until `until` (sets `nextAttemptAt`), in one statement or transaction that
   * gives each row's `attempts` as it leased it. Rows another runner holds are skipped, not
   * waited for (PostgreSQL `FOR UPDATE SKIP LOCKED`; SQLite: one writer, or a conditional
   * update per row that a row moved on meanwhile fails).
   */
  leaseDueRegistrations(
    now: Date,
    options: { limit: number; all: boolean; until: Date },
  ): PromiseLike<
    {
      /** The leased registration's order id. */
      orderId: string;
      /** Its `attempts` as leased: claimRegistration's compare-and-set value. */
      attempts: number;
    }[]
  >;

  // --- The shop's orders (the integration's columns) -----------------------------------------
  /** The order of this id, or null. */
  order(q: Q, id: string): PromiseLike<ShopOrder | null>;
  /** Orders with one of these service order ids or cart ids (both lists may be empty). */
  ordersByKeys(q: Q, serviceOrderIds: string[], cartIds: string[]): PromiseLike<ShopOrder[]>;
  /** This session's order of `cartId`, or its latest `service_pay` order created since. */
  sessionOrder(
    q: Q,
    sessionId: string,
    where: { cartId: string } | { since: Date },
  ): PromiseLike<ShopOrder | null>;
  /** Writes `values` into the order; the order as written, or null when there is none. */
  updateOrder(q: Q, id: string, values: OrderUpdate): PromiseLike<ShopOrder | null>;
  /** Orders in `status`, oldest first. */
  ordersInStatus(q: Q, status: string, limit: number): PromiseLike<ShopOrder[]>;
  /** Orders in `status` paid with `service_pay`, of no customer (customerId null), with no
   *  serviceOrderId, created before `before`, oldest first (createdAt, then id). */
  abandonedOrders(
    q: Q,
    where: { status: string; before: Date },
    limit: number,
  ): PromiseLike<ShopOrder[]>;
  /** The session's latest orders, newest first. */
  latestSessionOrders(
    q: Q,
    sessionId: string,
    limit: number,
  ): PromiseLike<
    {
      /** ShopOrder.id. */
      id: string;
      /** ShopOrder.number. */
      number: string;
    }[]
  >;

  // --- Order history --------------------------------------------------------------------------
  /** Appends one line of the order's history. */
  insertHistory(q: Q, row: HistoryRow): PromiseLike<unknown>;
  /** Deletes the order's history lines (its order is being dropped). */
  deleteHistory(q: Q, orderId: string): PromiseLike<unknown>;
  /** The order's history lines (only those to `to`, when given), newest first. */
  history(
    q: Q,
    orderId: string,
    options: { to?: string; limit?: number },
  ): PromiseLike<
    {
      /** HistoryRow.to. */
      to: string;
      /** HistoryRow.note. */
      note: string;
    }[]
  >;

  // --- Kept checkouts --------------------------------------------------------------------------
  /** The cart's kept checkout, or null. */
  checkout(q: Q, cartId: string): PromiseLike<CheckoutRow | null>;
  /** Upsert by the cart id; valuation and asked fields left undefined stay as they were. */
  saveCheckout(
    q: Q,
    row: Omit<CheckoutRow, keyof AcceptedValuation | "askedAmount" | "askedCurrency"> &
      Partial<AcceptedValuation & Pick<CheckoutRow, "askedAmount" | "askedCurrency">>,
  ): PromiseLike<unknown>;
  /** One conditional UPDATE of the row with this cartId, sessionId and updatedAt (as read):
   *  sets askedAmount and askedCurrency, and writes updatedAt back unchanged (an ORM that sets
   *  it on every update, like Prisma's `@updatedAt`, must not move it). */
  saveCheckoutAsked(
    q: Q,
    where: Pick<CheckoutRow, "cartId" | "sessionId" | "updatedAt">,
    asked: { askedAmount: number; askedCurrency: string },
  ): PromiseLike<unknown>;
  /** Deletes the cart's kept checkout (none: nothing happens). */
  deleteCheckout(q: Q, cartId: string): PromiseLike<unknown>;

  // --- Notifications ---------------------------------------------------------------------------
  /** One multi-row INSERT … ON CONFLICT (dedupeKey) DO NOTHING: the ids inserted. */
  insertNotifications(q: Q, rows: NewNotificationRow[]): PromiseLike<string[]>;
  /** The notification of this id or dedupe key, or null. */
  notification(
    q: Q,
    by: { id: string } | { dedupeKey: string },
  ): PromiseLike<NotificationRow | null>;
  /** Whether a row with this notification id and another dedupe key exists. */
  notificationIdElsewhere(q: Q, notificationId: string, dedupeKey: string): PromiseLike<boolean>;
  /** Ties the row to its order with its outcome: the rows changed (0 or 1). */
  settleNotification(
    q: Q,
    id: string,
    values: { orderId: string; outcome: NotificationOutcome; appliedAt: Date },
  ): PromiseLike<number>;
  /** One conditional UPDATE from outcome "stored" to "early": whether this call changed it. */
  claimStoredNotification(q: Q, id: string): PromiseLike<boolean>;
  /** Rows with no order, of this cart (or service order, when given), oldest first. */
  unsettledNotifications(
    q: Q,
    cartId: string,
    serviceOrderId: string | null,
    limit?: number,
  ): PromiseLike<NotificationRow[]>;
  /** Rows with outcome "stored", oldest first (receivedAt, then id); with `before`: only those
   *  of its cart or service order received before the row `before.id`, itself excluded. Asked
   *  on every apply, where there is almost never such a row: one statement should decide (the
   *  row's own time read in it), the rows read only when there are some
   *  (docs/decisions/webhook-storage.md). */
  storedNotifications(
    q: Q,
    options: {
      limit?: number;
      before?: { id: string; cartId: string | null; serviceOrderId: string | null };
    },
  ): PromiseLike<NotificationRow[]>;
  /** Rows tied to these orders, oldest first. */
  notificationsOfOrders(q: Q, orderIds: string[], limit: number): PromiseLike<NotificationRow[]>;
  /** Notification ids carried by more than one row, in order. */
  reusedNotificationIds(q: Q, limit: number): PromiseLike<string[]>;

  // --- Tokens and the renewal lease -------------------------------------------------------------
  /** The token row of this id, or null before the first token. */
  token(q: Q, id: string): PromiseLike<TokenRow | null>;
  /** Upsert by id. */
  saveToken(q: Q, row: TokenRow & { updatedAt: Date }): PromiseLike<unknown>;
  /** One conditional UPDATE of the lease `name`: taken when it expired by `now` or is already
   *  `holder`'s. Whether it was. */
  renewLease(q: Q, name: string, holder: string, expiresAt: Date, now: Date): PromiseLike<boolean>;
  /** INSERT … ON CONFLICT DO NOTHING of the lease: whether it was inserted. */
  insertLease(q: Q, name: string, holder: string, expiresAt: Date): PromiseLike<boolean>;
  /** Deletes the lease `name` when `holder` holds it. */
  deleteLease(q: Q, name: string, holder: string): PromiseLike<unknown>;

  // --- register-purchase rows and the seen trade-in ---------------------------------------------
  /** The order's register-purchase row, or null. */
  registration(q: Q, orderId: string): PromiseLike<RegistrationRow | null>;
  /** INSERT … ON CONFLICT (orderId) DO NOTHING, every field as given: whether it was inserted. */
  insertRegistration(q: Q, row: Omit<RegistrationRow, "id"> & { id: string }): PromiseLike<boolean>;
  /** One conditional UPDATE (status queued, attempts as given) to attempts + 1, nextAttemptAt
   *  `until`: whether it matched. */
  claimRegistration(
    q: Q,
    id: string,
    attempts: number,
    until: Date,
    updatedAt: Date,
  ): PromiseLike<boolean>;
  /** Writes an attempt's result into the row of this id. */
  updateRegistration(q: Q, id: string, values: RegistrationResult): PromiseLike<unknown>;
  /** Whether a queued row updated at or after `since` has `unreachable` set. */
  unreachableRegistrationSince(q: Q, since: Date): PromiseLike<boolean>;
  /** The trade-in id the session last saw accepted, or null. */
  seenTradeIn(q: Q, sessionId: string): PromiseLike<string | null>;
  /** Upsert by the session id. */
  saveSeenTradeIn(q: Q, sessionId: string, tradeInId: string, seenAt: Date): PromiseLike<unknown>;

  // --- The inspector's log -------------------------------------------------------------------
  /** Appends one entry; the store gives it the next `seq`. */
  insertLog(q: Q, row: LogRow): PromiseLike<unknown>;
  /** Deletes the entries written before `before` (the pruning after a day). */
  deleteLogBefore(q: Q, before: Date): PromiseLike<unknown>;
  /** The key's entries with seq above `afterSeq`, newest first. */
  readLog(
    q: Q,
    key: string,
    afterSeq: number,
    limit: number,
  ): PromiseLike<
    (LogRow & {
      /** IntegrationEntry.seq: the store's own increasing number. */
      seq: number;
    })[]
  >;
}

/** The order columns the kit reads (ShopOrder), by name: what an adapter selects. */
export const SHOP_ORDER_FIELDS = [
  "id",
  "number",
  "cartId",
  "sessionId",
  "customerId",
  "status",
  "serviceOrderId",
  "paymentMethod",
  "currency",
  "price",
  "tax",
  "shippingPrice",
  "discountTotal",
  "tradeInDiscount",
  "total",
  "tradeInStatus",
  "tradeInMessage",
  "valuationState",
  "valuationItemId",
  "valuationValue",
  "valuationCurrency",
  "valuationNote",
] as const satisfies readonly (keyof ShopOrder)[];
