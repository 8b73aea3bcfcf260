import {
  createServiceAdapter,
  type ServiceAdapter,
  type ServiceAdapterOptions,
  type ServiceRowStore,
  type ShopOrder,
} from "@service-integration/kit";
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  or,
  type SQL,
} from "drizzle-orm";

// The row store of the kit's service-rows.ts on the integration's tables, written once for both
// dialects: Drizzle's query builder reads the same on PostgreSQL and SQLite, and each dialect
// (./pg/adapter.ts, ./sqlite/adapter.ts) supplies what differs: how a transaction runs, how a
// row is locked, and what its driver's unique violation looks like. The rules over these rows
// are the kit's (createServiceAdapter).

/**
 * The query builder root of either dialect (a database or a transaction). Drizzle's PostgreSQL
 * and SQLite builders share these methods but no common type, so the store sees them untyped;
 * the rows it returns are the kit's row types.
 */
// biome-ignore lint/suspicious/noExplicitAny: the two dialects' builders have no common type
export type Builder = any;
// biome-ignore lint/suspicious/noExplicitAny: a table or column of either dialect
type Table = any;

/** The integration's tables of one dialect (pg/schema.ts, sqlite/schema.ts). */
export interface ServiceTables {
  serviceTokens: Table;
  serviceLeases: Table;
  serviceCheckouts: Table;
  serviceNotifications: Table;
  serviceTradeInRegistrations: Table;
  serviceSessionTradeIns: Table;
  serviceOrderHistory: Table;
  serviceIntegrationLog: Table;
}

/** What differs between the dialects. */
export interface Dialect {
  tables: ServiceTables;
  /** The shop's orders table: `id`, `number` and the spread serviceOrderColumns. */
  orders: Table;
  /** Runs `fn` in one transaction at the database's default isolation. */
  transaction<T = Builder>(fn: (q: Builder) => Promise<T>): Promise<T>;
  /** Runs `fn` outside a transaction (SQLite: after the connection's open transaction). */
  outside<T = Builder>(fn: (q: Builder) => Promise<T>): Promise<T>;
  /** A select that locks the rows it reads until the transaction ends: PostgreSQL
   *  `FOR UPDATE` (with `skipLocked`: `FOR UPDATE SKIP LOCKED`); SQLite already holds its one
   *  write lock from BEGIN IMMEDIATE, so the select as it is. */
  locked<S>(select: S, options?: { skipLocked: boolean }): S;
  /** The driver's unique-key violation (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE or
   *  _PRIMARYKEY), looked for through Drizzle's wrapping error (`cause`). */
  isUniqueViolation(error: unknown): boolean;
}

export type AdapterOptions<Q> = ServiceAdapterOptions<Q>;

/** Every port of the kit's shop-ports.ts that belongs to the integration, on its tables. */
export type DrizzleServiceAdapter = ServiceAdapter<Builder>;

/** Follows `cause` (Drizzle wraps the driver's error in a DrizzleQueryError). */
export function driverCode(error: unknown): unknown {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

const one = async <T>(rows: Promise<T[]>): Promise<T | null> => (await rows)[0] ?? null;
const some = async (rows: Promise<unknown[]>): Promise<boolean> => (await rows).length > 0;

export function createPorts<Q>(
  dialect: Dialect,
  options: AdapterOptions<Q>,
): DrizzleServiceAdapter {
  const { tables, orders: O } = dialect;
  const {
    serviceTokens: T,
    serviceLeases: L,
    serviceCheckouts: C,
    serviceNotifications: N,
    serviceTradeInRegistrations: R,
    serviceSessionTradeIns: S,
    serviceOrderHistory: H,
    serviceIntegrationLog: G,
  } = tables;

  /** The order's columns the kit reads (ShopOrder), selected by name. */
  const orderFields = Object.fromEntries(
    [
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
    ].map((name) => [name, O[name]]),
  );
  const readOrders = (q: Builder, where: SQL | undefined): Promise<ShopOrder[]> =>
    q.select(orderFields).from(O).where(where);
  const oldestFirst = [asc(N.receivedAt), asc(N.id)];
  const updated = async (rows: Promise<unknown[]>) => (await rows).length === 1;

  const store: ServiceRowStore<Builder> = {
    transaction: (fn) => dialect.transaction(async (q) => fn(q)),
    outside: (fn) => dialect.outside(async (q) => fn(q)),
    isUniqueViolation: (error) => dialect.isUniqueViolation(error),

    lockedOrders(q, { id, serviceOrderId, cartId }) {
      const keys = [
        ...(id ? [eq(O.id, id)] : []),
        ...(serviceOrderId ? [eq(O.serviceOrderId, serviceOrderId)] : []),
        ...(cartId ? [eq(O.cartId, cartId)] : []),
      ];
      if (keys.length === 0) return Promise.resolve([]);
      return dialect.locked(
        q
          .select(orderFields)
          .from(O)
          .where(or(...keys)),
      );
    },

    async leaseDueRegistrations(now, { limit, all, until }) {
      // One statement leases a batch: rows another runner is leasing right now are skipped, not
      // waited for, on PostgreSQL (FOR UPDATE SKIP LOCKED); SQLite runs one writer at a time.
      // RETURNING gives each row's attempts as this statement saw them.
      return dialect.transaction((q) => {
        const due = all
          ? eq(R.status, "queued")
          : and(eq(R.status, "queued"), lte(R.nextAttemptAt, now));
        const dueRows = dialect.locked(
          q.select({ id: R.id }).from(R).where(due).orderBy(asc(R.nextAttemptAt)).limit(limit),
          { skipLocked: true },
        );
        return q
          .update(R)
          .set({ nextAttemptAt: until })
          .where(inArray(R.id, dueRows))
          .returning({ orderId: R.orderId, attempts: R.attempts });
      });
    },

    order: (q, id) => one(readOrders(q, eq(O.id, id))),
    ordersByKeys: (q, serviceOrderIds, cartIds) =>
      readOrders(
        q,
        or(
          ...(serviceOrderIds.length ? [inArray(O.serviceOrderId, serviceOrderIds)] : []),
          ...(cartIds.length ? [inArray(O.cartId, cartIds)] : []),
        ),
      ),
    sessionOrder: (q, sessionId, where) =>
      "cartId" in where
        ? one(readOrders(q, and(eq(O.cartId, where.cartId), eq(O.sessionId, sessionId))))
        : one(
            q
              .select(orderFields)
              .from(O)
              .where(
                and(
                  eq(O.sessionId, sessionId),
                  eq(O.paymentMethod, "service_pay"),
                  gte(O.createdAt, where.since),
                ),
              )
              .orderBy(desc(O.createdAt))
              .limit(1),
          ),
    updateOrder: (q, id, values) =>
      one(q.update(O).set(values).where(eq(O.id, id)).returning(orderFields)),
    ordersInStatus: (q, status, limit) =>
      q
        .select(orderFields)
        .from(O)
        .where(eq(O.status, status))
        .orderBy(asc(O.createdAt))
        .limit(limit),
    latestSessionOrders: (q, sessionId, limit) =>
      q
        .select({ id: O.id, number: O.number })
        .from(O)
        .where(eq(O.sessionId, sessionId))
        .orderBy(desc(O.createdAt))
        .limit(limit),

    insertHistory: (q, row) => q.insert(H).values(row),
    history(q, orderId, { to, limit }) {
      const select = q
        .select({ to: H.to, note: H.note })
        .from(H)
        .where(and(eq(H.orderId, orderId), to === undefined ? undefined : eq(H.to, to)))
        .orderBy(desc(H.seq));
      return limit === undefined ? select : select.limit(limit);
    },

    checkout: (q, cartId) => one(q.select().from(C).where(eq(C.cartId, cartId))),
    saveCheckout: (q, row) =>
      q.insert(C).values(row).onConflictDoUpdate({ target: C.cartId, set: row }),
    deleteCheckout: (q, cartId) => q.delete(C).where(eq(C.cartId, cartId)),

    async insertNotifications(q, rows) {
      const inserted: { id: string }[] = await q
        .insert(N)
        .values(rows)
        .onConflictDoNothing({ target: N.dedupeKey })
        .returning({ id: N.id });
      return inserted.map((r) => r.id);
    },
    notification: (q, by) =>
      one(
        q
          .select()
          .from(N)
          .where("id" in by ? eq(N.id, by.id) : eq(N.dedupeKey, by.dedupeKey)),
      ),
    notificationIdElsewhere: (q, notificationId, dedupeKey) =>
      some(
        q
          .select({ id: N.id })
          .from(N)
          .where(and(eq(N.notificationId, notificationId), ne(N.dedupeKey, dedupeKey)))
          .limit(1),
      ),
    async settleNotification(q, id, values) {
      return (await q.update(N).set(values).where(eq(N.id, id)).returning({ id: N.id })).length;
    },
    claimStoredNotification: (q, id) =>
      updated(
        q
          .update(N)
          .set({ outcome: "early" })
          .where(and(eq(N.id, id), eq(N.outcome, "stored")))
          .returning({ id: N.id }),
      ),
    unsettledNotifications(q, cartId, serviceOrderId, limit) {
      const of = serviceOrderId
        ? or(eq(N.cartId, cartId), eq(N.serviceOrderId, serviceOrderId))
        : eq(N.cartId, cartId);
      const select = q
        .select()
        .from(N)
        .where(and(isNull(N.orderId), of))
        .orderBy(...oldestFirst);
      return limit === undefined ? select : select.limit(limit);
    },
    storedNotifications(q, { limit, before: b }) {
      const of = b && [
        ...(b.cartId ? [eq(N.cartId, b.cartId)] : []),
        ...(b.serviceOrderId ? [eq(N.serviceOrderId, b.serviceOrderId)] : []),
      ];
      const where = b
        ? and(
            eq(N.outcome, "stored"),
            ne(N.id, b.id),
            lt(N.receivedAt, b.receivedAt),
            or(...(of ?? [])),
          )
        : eq(N.outcome, "stored");
      const select = q
        .select()
        .from(N)
        .where(where)
        .orderBy(...oldestFirst);
      return limit === undefined ? select : select.limit(limit);
    },
    notificationsOfOrders: (q, orderIds, limit) =>
      q
        .select()
        .from(N)
        .where(inArray(N.orderId, orderIds))
        .orderBy(...oldestFirst)
        .limit(limit),
    async reusedNotificationIds(q, limit) {
      const rows: { notificationId: string }[] = await q
        .select({ notificationId: N.notificationId })
        .from(N)
        .where(isNotNull(N.notificationId))
        .groupBy(N.notificationId)
        .having(gt(count(), 1))
        .orderBy(asc(N.notificationId))
        .limit(limit);
      return rows.map((r) => r.notificationId);
    },

    token: (q, id) => one(q.select().from(T).where(eq(T.id, id))),
    saveToken: (q, row) => q.insert(T).values(row).onConflictDoUpdate({ target: T.id, set: row }),
    renewLease: (q, name, holder, expiresAt, now) =>
      updated(
        q
          .update(L)
          .set({ holder, expiresAt })
          .where(and(eq(L.name, name), or(lte(L.expiresAt, now), eq(L.holder, holder))))
          .returning({ name: L.name }),
      ),
    insertLease: (q, name, holder, expiresAt) =>
      updated(
        q
          .insert(L)
          .values({ name, holder, expiresAt })
          .onConflictDoNothing({ target: L.name })
          .returning({ name: L.name }),
      ),
    deleteLease: (q, name, holder) =>
      q.delete(L).where(and(eq(L.name, name), eq(L.holder, holder))),

    registration: (q, orderId) => one(q.select().from(R).where(eq(R.orderId, orderId))),
    insertRegistration: (q, row) =>
      updated(
        q.insert(R).values(row).onConflictDoNothing({ target: R.orderId }).returning({ id: R.id }),
      ),
    claimRegistration: (q, id, attempts, until, updatedAt) =>
      updated(
        q
          .update(R)
          .set({ attempts: attempts + 1, nextAttemptAt: until, updatedAt })
          .where(and(eq(R.id, id), eq(R.status, "queued"), eq(R.attempts, attempts)))
          .returning({ id: R.id }),
      ),
    updateRegistration: (q, id, values) => q.update(R).set(values).where(eq(R.id, id)),
    unreachableRegistrationSince: (q, since) =>
      some(
        q
          .select({ id: R.id })
          .from(R)
          .where(and(eq(R.status, "queued"), gte(R.updatedAt, since), eq(R.unreachable, true)))
          .limit(1),
      ),
    async seenTradeIn(q, sessionId) {
      const row = await one(
        q.select({ tradeInId: S.tradeInId }).from(S).where(eq(S.sessionId, sessionId)),
      );
      return (row as { tradeInId: string } | null)?.tradeInId ?? null;
    },
    saveSeenTradeIn: (q, sessionId, tradeInId, seenAt) =>
      q
        .insert(S)
        .values({ sessionId, tradeInId, seenAt })
        .onConflictDoUpdate({ target: S.sessionId, set: { tradeInId, seenAt } }),

    insertLog: (q, row) => q.insert(G).values(row),
    deleteLogBefore: (q, before) => q.delete(G).where(lt(G.at, before)),
    readLog: (q, key, afterSeq, limit) =>
      q
        .select()
        .from(G)
        .where(and(eq(G.key, key), gt(G.seq, afterSeq)))
        .orderBy(desc(G.seq))
        .limit(limit),
  };
  return createServiceAdapter<Builder>(store, options as AdapterOptions<Builder>);
}
