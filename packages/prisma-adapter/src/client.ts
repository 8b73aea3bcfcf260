import type {
  CheckoutRow,
  HistoryRow,
  LogRow,
  NotificationRow,
  RegistrationRow,
  ServiceRowStore,
  ShopOrder,
  TokenRow,
} from "@service-integration/kit";

// The part of a shop's generated Prisma client the adapter uses, typed by its shape: the
// package cannot import the shop's generated client (its output folder is the shop's), so it
// names the delegates and methods it calls, with the arguments it passes and the columns it
// reads (the kit's row types, service-rows.ts). A client generated from a schema holding
// prisma/service.prisma and an `Order` model with the README's columns is assignable to it (the
// shop's tsc checks that where it passes its client). Raw SQL goes through the client's
// `$queryRaw`/`$executeRaw` tagged templates.

type Rows<T> = PromiseLike<T[]>;
type Row<T> = PromiseLike<T | null>;
type Count = PromiseLike<{ count: number }>;
type Filter<T> =
  | T
  | {
      in?: NonNullable<T>[];
      not?: T;
      lt?: NonNullable<T>;
      lte?: NonNullable<T>;
      gte?: NonNullable<T>;
      gt?: NonNullable<T>;
    };
type Order<K extends string> = Partial<Record<K, "asc" | "desc">>;
/** A model's where clause: equality or a filter per column, and OR of such clauses. */
type Where<R> = { [K in keyof R]?: Filter<R[K]> } & { OR?: { [K in keyof R]?: Filter<R[K]> }[] };
type Find<R, K extends string> = {
  where: Where<R>;
  orderBy?: Order<K> | Order<K>[];
  take?: number;
};

/** The shop's Order row as the adapter reads it: the README's columns, `id` and `number`. */
export interface OrderRow extends ShopOrder {
  /** When the shop created the order: the adapter orders a session's orders by it (newest
   *  first), and leaves it out of the kit's ShopOrder. */
  createdAt: Date;
}
type NewCheckout = Parameters<ServiceRowStore<unknown>["saveCheckout"]>[1];
/** A log row with its `seq`, the store's own increasing number (IntegrationEntry.seq). */
type LogEntry = LogRow & { seq: number };
type RegistrationFull = Omit<RegistrationRow, "status"> & { status: string; updatedAt: Date };

/**
 * The models and raw queries of the shop's client (or of its interactive transaction): each
 * delegate is named as Prisma names the model of prisma/service.prisma (or the shop's `Order`),
 * with only the methods the adapter calls and the arguments it passes. The rows are the kit's
 * (service-rows.ts); Prisma's own signatures are wider, so a generated client is assignable.
 */
export interface ServiceModels {
  /** The service's OAuth tokens (model ServiceToken), one row per API user, secrets sealed. */
  serviceToken: {
    /** The token row of this id ("default"), or null before the first token. */
    findUnique(args: { where: { id: string } }): Row<TokenRow>;
    /** Writes the row after a token request or a renewal (created on the first). */
    upsert(args: {
      where: { id: string };
      create: TokenRow;
      update: Partial<TokenRow>;
    }): PromiseLike<unknown>;
  };
  /** The token renewal lease (model Lease): one holder at a time, lost when it expires. */
  lease: {
    /** Takes the lease when it has expired or is this holder's: the count is 1 when taken. */
    updateMany(args: {
      where: { name: string; OR: ({ expiresAt: { lte: Date } } | { holder: string })[] };
      data: { holder: string; expiresAt: Date };
    }): Count;
    /** Releases the lease this holder holds. */
    deleteMany(args: { where: { name: string; holder: string } }): Count;
  };
  /** The checkout details kept per cart when a Service Pay payment starts (ServiceCheckout). */
  serviceCheckout: {
    /** The kept checkout of this cart, or null. */
    findUnique(args: { where: { cartId: string } }): Row<CheckoutRow>;
    /** Keeps the checkout of a cart, replacing the one kept before. */
    upsert(args: {
      where: { cartId: string };
      create: NewCheckout;
      update: NewCheckout;
    }): PromiseLike<unknown>;
    /** A conditional write (the asked amount, against the row as read): the rows changed. */
    updateMany(args: { where: Where<CheckoutRow>; data: Partial<CheckoutRow> }): Count;
    /** Deletes the cart's kept checkout. */
    deleteMany(args: { where: { cartId: string } }): Count;
  };
  /** Every order notification with a valid signature, as received (ServiceNotification). */
  serviceNotification: {
    /** The notification by its id or dedupe key, or null. */
    findFirst(args: { where: Where<NotificationRow> }): Row<NotificationRow>;
    /** Notifications of a cart or service order, the stored ones, or those of some orders:
     *  oldest first. */
    findMany(args: Find<NotificationRow, "receivedAt" | "id">): Rows<NotificationRow>;
  };
  /** register-purchase of a card order with a trade-in, until final (TradeInRegistration). */
  tradeInRegistration: {
    /** The order's registration, or null. */
    findUnique(args: { where: { orderId: string } }): Row<RegistrationFull>;
    /** A queued registration that found the service unreachable since a time, or null. */
    findFirst(args: { where: Where<RegistrationFull> }): Row<RegistrationFull>;
    /** Queued registrations due, the earliest next attempt first (SQLite's lease of the
     *  retry job's batch, a conditional update per row after it). */
    findMany(args: Find<RegistrationFull, "nextAttemptAt">): Rows<RegistrationFull>;
    /** Queues a new registration (its order id is unique: a second one is P2002). */
    create(args: { data: RegistrationRow }): PromiseLike<unknown>;
    /** Writes an attempt's result into the registration. */
    update(args: { where: { id: string }; data: Partial<RegistrationFull> }): PromiseLike<unknown>;
    /** A conditional write (a claim of an attempt, or SQLite's lease of a registration as
     *  read): the rows changed, 1 when it was this caller's. */
    updateMany(args: { where: Where<RegistrationFull>; data: Partial<RegistrationFull> }): Count;
  };
  /** The trade-in the session's browser last saw accepted (model SessionTradeIn). */
  sessionTradeIn: {
    /** The trade-in id the session last saw, or null. */
    findUnique(args: { where: { sessionId: string } }): Row<{
      /** The trade-in item's id the session last saw accepted. */
      tradeInId: string;
    }>;
    /** Records the trade-in the session saw, and when. */
    upsert(args: {
      where: { sessionId: string };
      create: { sessionId: string; tradeInId: string; seenAt: Date };
      update: { tradeInId: string; seenAt: Date };
    }): PromiseLike<unknown>;
  };
  /** The inspector's log (model IntegrationLogEntry), pruned after a day. */
  integrationLogEntry: {
    /** Appends one entry. */
    create(args: { data: LogRow }): PromiseLike<unknown>;
    /** Prunes the entries older than the cut-off. */
    deleteMany(args: { where: { at: { lt: Date } } }): Count;
    /** A key's entries after a sequence number (`seq`, the order of writing), newest first:
     *  the inspector's feed. */
    findMany(args: Find<LogEntry, "seq">): Rows<LogEntry>;
  };
  /** Each change of an order's status (model OrderStatusChange). */
  orderStatusChange: {
    /** Appends one line of an order's history. */
    create(args: { data: HistoryRow }): PromiseLike<unknown>;
    /** An order's history lines, newest first. */
    findMany(
      args: Find<HistoryRow & { createdAt: Date; id: string }, "createdAt" | "id">,
    ): Rows<HistoryRow>;
    /** Deletes an order's history lines (an abandoned guest order the sweep drops). */
    deleteMany(args: { where: { orderId: string } }): Count;
  };
  /** The shop's own Order model, its integration columns (the README's) read and written. */
  order: {
    /** The order of this id, or null. */
    findUnique(args: { where: { id: string } }): Row<OrderRow>;
    /** A session's order of a cart or its latest since a time, newest first; or null. */
    findFirst(args: Find<OrderRow, "createdAt">): Row<OrderRow>;
    /** Orders by their keys or in a status (oldest first), or a session's latest. */
    findMany(args: Find<OrderRow, "createdAt" | "id">): Rows<OrderRow>;
    /** Writes the integration's columns of an order change; the order as written. */
    update(args: { where: { id: string }; data: Partial<ShopOrder> }): PromiseLike<OrderRow>;
  };
  /** A raw query as a tagged template (values bound as parameters): the statements Prisma's
   *  model API cannot say (`FOR UPDATE`, `SKIP LOCKED`, `ON CONFLICT … RETURNING`). */
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<T>;
  /** A raw statement as a tagged template: the rows it changed. */
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<number>;
}

/**
 * The shop's Prisma client: the models, and interactive transactions whose client `Q` (what the
 * shop's callbacks are given) has the same models.
 */
export interface ServiceClient<Q extends ServiceModels> extends ServiceModels {
  /** Runs `fn` in one interactive transaction at the database's default isolation; rolls back
   *  when it throws. The adapter's writes that belong together, and the shop's callbacks
   *  inside them, run on its `tx`. */
  $transaction<R>(fn: (tx: Q) => Promise<R>): PromiseLike<R>;
}
