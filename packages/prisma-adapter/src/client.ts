import type { ShopOrder } from "@service-integration/kit";

// The part of a shop's generated Prisma client the adapter uses, typed by its shape: the
// package cannot import the shop's generated client (its output folder is the shop's), so it
// names the delegates and methods it calls, with the arguments it passes and the columns it
// reads. A client generated from a schema holding prisma/service.prisma and an `Order` model
// with the README's columns is assignable to it (the shop's tsc checks that where it passes
// its client). Raw SQL goes through the client's `$queryRaw`/`$executeRaw` tagged templates.

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
      gt?: NonNullable<T>;
      gte?: NonNullable<T>;
    };
type Order<K extends string> = Partial<Record<K, "asc" | "desc">>;
/** A model's where clause: equality or a filter per column, and OR of such clauses. */
type Where<R> = { [K in keyof R]?: Filter<R[K]> } & { OR?: { [K in keyof R]?: Filter<R[K]> }[] };

export interface ServiceTokenRow {
  id: string;
  accessToken: string;
  refreshToken: string;
  userId: string;
  merchantId: string;
  scope: string;
  accessExpiresAt: Date;
}

export interface LeaseRow {
  name: string;
  holder: string;
  expiresAt: Date;
}

export interface ServiceCheckoutRow {
  cartId: string;
  sessionId: string;
  customerId: string | null;
  email: string;
  billing: string;
  shipping: string;
  shippingMethod: string;
  valuationState: string | null;
  valuationItemId: string | null;
  valuationValue: number | null;
  valuationCurrency: string | null;
  valuationNote: string | null;
  updatedAt: Date;
}

export interface ServiceNotificationRow {
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
  form: string;
  body: string;
  outcome: string;
  orderId: string | null;
  receivedAt: Date;
  appliedAt: Date | null;
}

export interface TradeInRegistrationRow {
  id: string;
  orderId: string;
  sessionHash: string;
  cart: string;
  orderAmount: number;
  customerId: string | null;
  status: string;
  precheck: boolean;
  reason: string;
  attempts: number;
  lastError: string;
  unreachable: boolean;
  nextAttemptAt: Date | null;
  response: string;
  updatedAt: Date;
}

export interface SessionTradeInRow {
  sessionId: string;
  tradeInId: string;
  seenAt: Date;
}

export interface IntegrationLogEntryRow {
  seq: number;
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

export interface OrderStatusChangeRow {
  id: string;
  orderId: string;
  from: string | null;
  to: string;
  source: string;
  note: string;
  createdAt: Date;
}

/** The shop's Order row as the adapter reads it: the README's columns, `id` and `number`. */
export interface OrderRow extends ShopOrder {
  createdAt: Date;
}

type RegistrationData = Partial<Omit<TradeInRegistrationRow, "id" | "orderId" | "updatedAt">>;

/** The models and raw queries of the shop's client (or of its interactive transaction). */
export interface ServiceModels {
  serviceToken: {
    findUnique(args: { where: { id: string } }): Row<ServiceTokenRow>;
    upsert(args: {
      where: { id: string };
      create: ServiceTokenRow;
      update: Omit<ServiceTokenRow, "id">;
    }): PromiseLike<unknown>;
  };
  lease: {
    updateMany(args: { where: Where<LeaseRow>; data: { holder: string; expiresAt: Date } }): Count;
    create(args: { data: LeaseRow }): PromiseLike<unknown>;
    deleteMany(args: { where: { name: string; holder: string } }): Count;
  };
  serviceCheckout: {
    findUnique(args: { where: { cartId: string } }): Row<ServiceCheckoutRow>;
    upsert(args: {
      where: { cartId: string };
      create: Partial<ServiceCheckoutRow> & Omit<ServiceCheckoutRow, `valuation${string}`>;
      update: Partial<ServiceCheckoutRow>;
    }): PromiseLike<unknown>;
    deleteMany(args: { where: { cartId: string } }): Count;
  };
  serviceNotification: {
    findUnique(args: { where: { dedupeKey: string } }): Row<ServiceNotificationRow>;
    findFirst(args: { where: Where<ServiceNotificationRow> }): Row<ServiceNotificationRow>;
    findMany(args: {
      where: Where<ServiceNotificationRow>;
      orderBy: Order<"receivedAt" | "id">[];
      take?: number;
    }): Rows<ServiceNotificationRow>;
  };
  tradeInRegistration: {
    findUnique(args: { where: { orderId: string } }): Row<TradeInRegistrationRow>;
    findFirst(args: { where: Where<TradeInRegistrationRow> }): Row<TradeInRegistrationRow>;
    findMany(args: {
      where: Where<TradeInRegistrationRow>;
      orderBy: Order<"nextAttemptAt">;
      take: number;
    }): Rows<TradeInRegistrationRow>;
    create(args: {
      data: RegistrationData &
        Pick<TradeInRegistrationRow, "orderId" | "sessionHash" | "cart" | "orderAmount" | "status">;
    }): PromiseLike<unknown>;
    update(args: { where: { id: string }; data: RegistrationData }): PromiseLike<unknown>;
    updateMany(args: { where: Where<TradeInRegistrationRow>; data: RegistrationData }): Count;
  };
  sessionTradeIn: {
    findUnique(args: { where: { sessionId: string } }): Row<SessionTradeInRow>;
    upsert(args: {
      where: { sessionId: string };
      create: SessionTradeInRow;
      update: Omit<SessionTradeInRow, "sessionId">;
    }): PromiseLike<unknown>;
  };
  integrationLogEntry: {
    create(args: { data: Omit<IntegrationLogEntryRow, "seq"> }): PromiseLike<unknown>;
    deleteMany(args: { where: { at: { lt: Date } } }): Count;
    findMany(args: {
      where: { key: string; seq: { gt: number } };
      orderBy: Order<"seq">;
      take: number;
    }): Rows<IntegrationLogEntryRow>;
  };
  orderStatusChange: {
    create(args: {
      data: Omit<OrderStatusChangeRow, "id" | "createdAt" | "note"> & { note: string };
    }): PromiseLike<unknown>;
    findMany(args: {
      where: Where<OrderStatusChangeRow>;
      orderBy: Order<"createdAt" | "id">[];
      take?: number;
    }): Rows<OrderStatusChangeRow>;
  };
  order: {
    findUnique(args: { where: { id: string } }): Row<OrderRow>;
    findFirst(args: { where: Where<OrderRow>; orderBy?: Order<"createdAt"> }): Row<OrderRow>;
    findMany(args: {
      where: Where<OrderRow>;
      orderBy?: Order<"createdAt">;
      take?: number;
    }): Rows<OrderRow>;
    update(args: {
      where: { id: string };
      data: Partial<
        Pick<
          OrderRow,
          | "status"
          | "tradeInDiscount"
          | "total"
          | "serviceOrderId"
          | "tradeInStatus"
          | "tradeInMessage"
        >
      >;
    }): PromiseLike<OrderRow>;
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
