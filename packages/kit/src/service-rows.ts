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
  cartId: string;
  sessionId: string;
  customerId: string | null;
  email: string;
  /** JSON of the contract Address. */
  billing: string;
  shipping: string;
  shippingMethod: string;
  updatedAt: Date;
  /** What purchase_data answered while the payment was open (KeptCheckout.asked): the Cart's
   *  total in cents and its currency; both null until then. */
  askedAmount: number | null;
  askedCurrency: string | null;
}

/** A stored notification row. `customerId` is a column of the adapters that keep it. */
export interface NotificationRow extends Omit<OrderNotification, "form" | "customerId"> {
  id: string;
  form: string;
  customerId?: string | null;
  outcome: string;
  orderId: string | null;
  receivedAt: Date;
}

/** A new notification row (outcome "stored" or "early", no order yet). */
export interface NewNotificationRow extends OrderNotification {
  id: string;
  outcome: NotificationOutcome;
  receivedAt: Date;
}

/** The token row, its secrets sealed (TokenSealer) under `${id}:${field}`. */
export interface TokenRow {
  id: string;
  accessToken: string;
  refreshToken: string;
  userId: string;
  merchantId: string;
  scope: string;
  accessExpiresAt: Date;
}

/** A register-purchase row as the kit writes it. */
export interface RegistrationRow extends TradeInRegistration {
  nextAttemptAt: Date | null;
}

/** What finishing an attempt writes into a registration row (TradeInRegistrationStore.finish's
 *  result), with the time it is written. */
export type RegistrationResult = Parameters<TradeInRegistrationStore["finish"]>[1] & {
  updatedAt: Date;
};

/** One line of an order's history. */
export interface HistoryRow {
  orderId: string;
  from: string | null;
  to: string;
  source: string;
  /** At most 1,000 characters (the kit cuts it). */
  note: string;
}

/** One entry of the inspector's log. */
export interface LogRow {
  key: string;
  at: Date;
  kind: string;
  label: string;
  status: number | null;
  ok: boolean;
  durationMs: number | null;
  detail: string;
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
  id?: string | null;
  serviceOrderId?: string | null;
  cartId?: string | null;
}

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
  ): PromiseLike<{ orderId: string; attempts: number }[]>;

  // --- The shop's orders (the integration's columns) -----------------------------------------
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
  ): PromiseLike<{ id: string; number: string }[]>;

  // --- Order history --------------------------------------------------------------------------
  insertHistory(q: Q, row: HistoryRow): PromiseLike<unknown>;
  /** Deletes the order's history lines (its order is being dropped). */
  deleteHistory(q: Q, orderId: string): PromiseLike<unknown>;
  /** The order's history lines (only those to `to`, when given), newest first. */
  history(
    q: Q,
    orderId: string,
    options: { to?: string; limit?: number },
  ): PromiseLike<{ to: string; note: string }[]>;

  // --- Kept checkouts --------------------------------------------------------------------------
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
  deleteCheckout(q: Q, cartId: string): PromiseLike<unknown>;

  // --- Notifications ---------------------------------------------------------------------------
  /** One multi-row INSERT … ON CONFLICT (dedupeKey) DO NOTHING: the ids inserted. */
  insertNotifications(q: Q, rows: NewNotificationRow[]): PromiseLike<string[]>;
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
  token(q: Q, id: string): PromiseLike<TokenRow | null>;
  /** Upsert by id. */
  saveToken(q: Q, row: TokenRow & { updatedAt: Date }): PromiseLike<unknown>;
  /** One conditional UPDATE of the lease `name`: taken when it expired by `now` or is already
   *  `holder`'s. Whether it was. */
  renewLease(q: Q, name: string, holder: string, expiresAt: Date, now: Date): PromiseLike<boolean>;
  /** INSERT … ON CONFLICT DO NOTHING of the lease: whether it was inserted. */
  insertLease(q: Q, name: string, holder: string, expiresAt: Date): PromiseLike<boolean>;
  deleteLease(q: Q, name: string, holder: string): PromiseLike<unknown>;

  // --- register-purchase rows and the seen trade-in ---------------------------------------------
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
  updateRegistration(q: Q, id: string, values: RegistrationResult): PromiseLike<unknown>;
  /** Whether a queued row updated at or after `since` has `unreachable` set. */
  unreachableRegistrationSince(q: Q, since: Date): PromiseLike<boolean>;
  seenTradeIn(q: Q, sessionId: string): PromiseLike<string | null>;
  /** Upsert by the session id. */
  saveSeenTradeIn(q: Q, sessionId: string, tradeInId: string, seenAt: Date): PromiseLike<unknown>;

  // --- The inspector's log -------------------------------------------------------------------
  insertLog(q: Q, row: LogRow): PromiseLike<unknown>;
  deleteLogBefore(q: Q, before: Date): PromiseLike<unknown>;
  /** The key's entries with seq above `afterSeq`, newest first. */
  readLog(
    q: Q,
    key: string,
    afterSeq: number,
    limit: number,
  ): PromiseLike<(LogRow & { seq: number })[]>;
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
