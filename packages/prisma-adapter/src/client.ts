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
  createdAt: Date;
}
type NewCheckout = Parameters<ServiceRowStore<unknown>["saveCheckout"]>[1];
type RegistrationFull = Omit<RegistrationRow, "status"> & { status: string; updatedAt: Date };

/** The models and raw queries of the shop's client (or of its interactive transaction). */
export interface ServiceModels {
  serviceToken: {
    findUnique(args: { where: { id: string } }): Row<TokenRow>;
    upsert(args: {
      where: { id: string };
      create: TokenRow;
      update: Partial<TokenRow>;
    }): PromiseLike<unknown>;
  };
  lease: {
    updateMany(args: {
      where: { name: string; OR: ({ expiresAt: { lte: Date } } | { holder: string })[] };
      data: { holder: string; expiresAt: Date };
    }): Count;
    deleteMany(args: { where: { name: string; holder: string } }): Count;
  };
  serviceCheckout: {
    findUnique(args: { where: { cartId: string } }): Row<CheckoutRow>;
    upsert(args: {
      where: { cartId: string };
      create: NewCheckout;
      update: NewCheckout;
    }): PromiseLike<unknown>;
    updateMany(args: { where: Where<CheckoutRow>; data: Partial<CheckoutRow> }): Count;
    deleteMany(args: { where: { cartId: string } }): Count;
  };
  serviceNotification: {
    findFirst(args: { where: Where<NotificationRow> }): Row<NotificationRow>;
    findMany(args: Find<NotificationRow, "receivedAt" | "id">): Rows<NotificationRow>;
  };
  tradeInRegistration: {
    findUnique(args: { where: { orderId: string } }): Row<RegistrationFull>;
    findFirst(args: { where: Where<RegistrationFull> }): Row<RegistrationFull>;
    findMany(args: Find<RegistrationFull, "nextAttemptAt">): Rows<RegistrationFull>;
    create(args: { data: RegistrationRow }): PromiseLike<unknown>;
    update(args: { where: { id: string }; data: Partial<RegistrationFull> }): PromiseLike<unknown>;
    updateMany(args: { where: Where<RegistrationFull>; data: Partial<RegistrationFull> }): Count;
  };
  sessionTradeIn: {
    findUnique(args: { where: { sessionId: string } }): Row<{ tradeInId: string }>;
    upsert(args: {
      where: { sessionId: string };
      create: { sessionId: string; tradeInId: string; seenAt: Date };
      update: { tradeInId: string; seenAt: Date };
    }): PromiseLike<unknown>;
  };
  integrationLogEntry: {
    create(args: { data: LogRow }): PromiseLike<unknown>;
    deleteMany(args: { where: { at: { lt: Date } } }): Count;
    findMany(args: Find<LogRow & { seq: number }, "seq">): Rows<LogRow & { seq: number }>;
  };
  orderStatusChange: {
    create(args: { data: HistoryRow }): PromiseLike<unknown>;
    findMany(
      args: Find<HistoryRow & { createdAt: Date; id: string }, "createdAt" | "id">,
    ): Rows<HistoryRow>;
    deleteMany(args: { where: { orderId: string } }): Count;
  };
  order: {
    findUnique(args: { where: { id: string } }): Row<OrderRow>;
    findFirst(args: Find<OrderRow, "createdAt">): Row<OrderRow>;
    findMany(args: Find<OrderRow, "createdAt" | "id">): Rows<OrderRow>;
    update(args: { where: { id: string }; data: Partial<ShopOrder> }): PromiseLike<OrderRow>;
  };
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<T>;
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<number>;
}

/**
 * The shop's Prisma client: the models, and interactive transactions whose client `Q` (what the
 * shop's callbacks are given) has the same models.
 */
export interface ServiceClient<Q extends ServiceModels> extends ServiceModels {
  $transaction<R>(fn: (tx: Q) => Promise<R>): PromiseLike<R>;
}
