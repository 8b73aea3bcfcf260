import {
  createServiceAdapter,
  type ServiceAdapter,
  type ServiceAdapterOptions,
  type ServiceRowStore,
  SHOP_ORDER_FIELDS,
  type ShopOrder,
} from "@service-integration/kit";
import type { SQL } from "drizzle-orm";
import * as orm from "drizzle-orm";

const { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, isNull } = orm;
const { lt, lte, ne, or } = orm;

// The row store of the kit's service-rows.ts on the integration's tables, written once for both
// dialects: Drizzle's query builder reads the same on PostgreSQL and SQLite, and each dialect
// (./pg.ts, ./sqlite.ts) supplies what differs: how a transaction runs, how a
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
export type ServiceTables = Record<
  `service${"Tokens" | "Leases" | "Checkouts" | "Notifications" | "TradeInRegistrations" | "SessionTradeIns" | "OrderHistory" | "IntegrationLog"}`,
  Table
>;

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
export type { CreateOrderParams, NewOrderColumns } from "@service-integration/kit";

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

// biome-ignore lint/suspicious/noExplicitAny: a row of either dialect's table
const one = async <T = any>(rows: PromiseLike<T[]>): Promise<T | null> => (await rows)[0] ?? null;
const some = async (rows: PromiseLike<unknown[]>): Promise<boolean> => (await rows).length > 0;
/** Whether a write changed one row (its RETURNING). */
const hit = async (write: Builder): Promise<boolean> => (await write.returning()).length === 1;
const anyOf = (...keys: (SQL | false | null | undefined | "")[]) =>
  or(...keys.filter((k): k is SQL => Boolean(k)));

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
  const orderFields = Object.fromEntries(SHOP_ORDER_FIELDS.map((name) => [name, O[name]]));
  /** SELECT (`fields`, else every column) FROM `table` WHERE … ORDER BY … LIMIT … */
  function find(q: Builder, t: Table, where?: SQL, by?: SQL[], limit?: number, fields?: object) {
    const select = (fields ? q.select(fields) : q.select()).from(t).where(where);
    const ordered = by ? select.orderBy(...by) : select;
    return limit === undefined ? ordered : ordered.limit(limit);
  }
  const first = (q: Builder, t: Table, where: SQL) => one(find(q, t, where));
  const exists = (q: Builder, t: Table, where?: SQL) => some(find(q, t, where, undefined, 1));
  const upsert = (q: Builder, t: Table, target: Table, row: object) =>
    q.insert(t).values(row).onConflictDoUpdate({ target, set: row });
  const orders = (q: Builder, where?: SQL, by?: SQL[], limit?: number): Promise<ShopOrder[]> =>
    find(q, O, where, by, limit, orderFields);
  const oldestFirst = [asc(N.receivedAt), asc(N.id)];
  const about = (cartId: string | null, serviceOrderId: string | null) =>
    anyOf(cartId && eq(N.cartId, cartId), serviceOrderId && eq(N.serviceOrderId, serviceOrderId));

  const store: ServiceRowStore<Builder> = {
    transaction: (fn) => dialect.transaction(async (q) => fn(q)),
    outside: (fn) => dialect.outside(async (q) => fn(q)),
    isUniqueViolation: (error) => dialect.isUniqueViolation(error),
    lockedOrders(q, { id, serviceOrderId, cartId }) {
      if (!id && !serviceOrderId && !cartId) return Promise.resolve([]);
      const where = anyOf(
        id && eq(O.id, id),
        serviceOrderId && eq(O.serviceOrderId, serviceOrderId),
        cartId && eq(O.cartId, cartId),
      );
      return dialect.locked(orders(q, where));
    },
    leaseDueRegistrations: (now, { limit, all, until }) =>
      // One statement leases a batch: rows another runner is leasing right now are skipped, not
      // waited for, on PostgreSQL (FOR UPDATE SKIP LOCKED); SQLite runs one writer at a time.
      // RETURNING gives each row's attempts as this statement saw them.
      dialect.transaction((q) => {
        const due = and(eq(R.status, "queued"), all ? undefined : lte(R.nextAttemptAt, now));
        const ids = find(q, R, due, [asc(R.nextAttemptAt)], limit, { id: R.id });
        return q
          .update(R)
          .set({ nextAttemptAt: until })
          .where(inArray(R.id, dialect.locked(ids, { skipLocked: true })))
          .returning({ orderId: R.orderId, attempts: R.attempts });
      }),

    order: (q, id) => one(orders(q, eq(O.id, id))),
    ordersByKeys: (q, serviceOrderIds, cartIds) =>
      orders(
        q,
        anyOf(
          serviceOrderIds.length > 0 && inArray(O.serviceOrderId, serviceOrderIds),
          cartIds.length > 0 && inArray(O.cartId, cartIds),
        ),
      ),
    sessionOrder: (q, sessionId, where) =>
      one(
        "cartId" in where
          ? orders(q, and(eq(O.cartId, where.cartId), eq(O.sessionId, sessionId)))
          : orders(
              q,
              and(
                eq(O.sessionId, sessionId),
                eq(O.paymentMethod, "service_pay"),
                gte(O.createdAt, where.since),
              ),
              [desc(O.createdAt)],
              1,
            ),
      ),
    updateOrder: (q, id, values) =>
      one(q.update(O).set(values).where(eq(O.id, id)).returning(orderFields)),
    ordersInStatus: (q, status, limit) =>
      orders(q, eq(O.status, status), [asc(O.createdAt)], limit),
    abandonedOrders(q, { status, before }, limit) {
      const guest = and(isNull(O.customerId), isNull(O.serviceOrderId), lt(O.createdAt, before));
      const where = and(eq(O.status, status), eq(O.paymentMethod, "service_pay"), guest);
      return orders(q, where, [asc(O.createdAt), asc(O.id)], limit);
    },
    latestSessionOrders: (q, sessionId, limit) =>
      find(q, O, eq(O.sessionId, sessionId), [desc(O.createdAt)], limit, {
        id: O.id,
        number: O.number,
      }),

    insertHistory: (q, row) => q.insert(H).values(row),
    deleteHistory: (q, orderId) => q.delete(H).where(eq(H.orderId, orderId)),
    history: (q, orderId, { to, limit }) =>
      find(
        q,
        H,
        and(eq(H.orderId, orderId), to === undefined ? undefined : eq(H.to, to)),
        [desc(H.seq)],
        limit,
        { to: H.to, note: H.note },
      ),

    checkout: (q, cartId) => first(q, C, eq(C.cartId, cartId)),
    saveCheckout: (q, row) => upsert(q, C, C.cartId, row),
    saveCheckoutAsked(q, { cartId: id, sessionId: s, updatedAt: at }, asked) {
      const same = and(eq(C.cartId, id), eq(C.sessionId, s), eq(C.updatedAt, at));
      return q.update(C).set(asked).where(same);
    },
    deleteCheckout: (q, cartId) => q.delete(C).where(eq(C.cartId, cartId)),

    async insertNotifications(q, rows) {
      const insert = q.insert(N).values(rows).onConflictDoNothing({ target: N.dedupeKey });
      return (await insert.returning({ id: N.id })).map((r: { id: string }) => r.id);
    },
    notification: (q, by) =>
      first(q, N, "id" in by ? eq(N.id, by.id) : eq(N.dedupeKey, by.dedupeKey)),
    notificationIdElsewhere: (q, notificationId, dedupeKey) =>
      exists(q, N, and(eq(N.notificationId, notificationId), ne(N.dedupeKey, dedupeKey))),
    settleNotification: async (q, id, values) =>
      (await q.update(N).set(values).where(eq(N.id, id)).returning()).length,
    claimStoredNotification: (q, id) => {
      const stored = and(eq(N.id, id), eq(N.outcome, "stored"));
      return hit(q.update(N).set({ outcome: "early" }).where(stored));
    },
    unsettledNotifications: (q, cartId, serviceOrderId, limit) =>
      find(q, N, and(isNull(N.orderId), about(cartId, serviceOrderId)), oldestFirst, limit),
    storedNotifications: (q, { limit, before: b }) => {
      // The row's own time in a subquery: one statement, asked on every apply.
      const own = b && q.select({ at: N.receivedAt }).from(N).where(eq(N.id, b.id));
      const earlier = b && [
        ne(N.id, b.id),
        lt(N.receivedAt, own),
        about(b.cartId, b.serviceOrderId),
      ];
      return find(q, N, and(eq(N.outcome, "stored"), ...(earlier ?? [])), oldestFirst, limit);
    },
    notificationsOfOrders: (q, orderIds, limit) =>
      find(q, N, inArray(N.orderId, orderIds), oldestFirst, limit),
    async reusedNotificationIds(q, limit) {
      const ids = q.select({ id: N.notificationId }).from(N).where(isNotNull(N.notificationId));
      const reused = ids.groupBy(N.notificationId).having(gt(count(), 1));
      const rows = await reused.orderBy(asc(N.notificationId)).limit(limit);
      return rows.map((r: { id: string }) => r.id);
    },

    token: (q, id) => first(q, T, eq(T.id, id)),
    saveToken: (q, row) => upsert(q, T, T.id, row),
    renewLease: (q, name, holder, expiresAt, now) => {
      const free = and(eq(L.name, name), or(lte(L.expiresAt, now), eq(L.holder, holder)));
      return hit(q.update(L).set({ holder, expiresAt }).where(free));
    },
    insertLease: (q, name, holder, expiresAt) =>
      hit(q.insert(L).values({ name, holder, expiresAt }).onConflictDoNothing({ target: L.name })),
    deleteLease: (q, name, holder) =>
      q.delete(L).where(and(eq(L.name, name), eq(L.holder, holder))),

    registration: (q, orderId) => first(q, R, eq(R.orderId, orderId)),
    insertRegistration: (q, row) =>
      hit(q.insert(R).values(row).onConflictDoNothing({ target: R.orderId })),
    claimRegistration: (q, id, attempts, until, updatedAt) => {
      const unclaimed = and(eq(R.id, id), eq(R.status, "queued"), eq(R.attempts, attempts));
      const next = { attempts: attempts + 1, nextAttemptAt: until, updatedAt };
      return hit(q.update(R).set(next).where(unclaimed));
    },
    updateRegistration: (q, id, values) => q.update(R).set(values).where(eq(R.id, id)),
    unreachableRegistrationSince: (q, since) =>
      exists(q, R, and(eq(R.status, "queued"), gte(R.updatedAt, since), eq(R.unreachable, true))),
    seenTradeIn: async (q, sessionId) =>
      (await first(q, S, eq(S.sessionId, sessionId)))?.tradeInId ?? null,
    saveSeenTradeIn: (q, sessionId, tradeInId, seenAt) =>
      upsert(q, S, S.sessionId, { sessionId, tradeInId, seenAt }),

    insertLog: (q, row) => q.insert(G).values(row),
    deleteLogBefore: (q, before) => q.delete(G).where(lt(G.at, before)),
    readLog: (q, key, afterSeq, limit) =>
      find(q, G, and(eq(G.key, key), gt(G.seq, afterSeq)), [desc(G.seq)], limit),
  };
  return createServiceAdapter<Builder>(store, options as AdapterOptions<Builder>);
}
