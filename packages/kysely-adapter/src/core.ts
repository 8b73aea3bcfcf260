// The kit's row-level store (service-rows.ts) written with Kysely once for both databases: each
// method one statement of the integration's tables (or its columns of the shop's orders). What
// differs per database (the transaction, the locks, the unique-violation code) comes in as
// `Locking` from ./pg.ts and ./sqlite.ts. Every rule is the kit's (createServiceAdapter).
import type * as Kit from "@service-integration/kit";
import { createServiceAdapter, SHOP_ORDER_FIELDS } from "@service-integration/kit";
import {
  CamelCasePlugin,
  type Insertable,
  type Kysely,
  type KyselyPlugin,
  type Selectable,
  type SelectQueryBuilder,
  type Updateable,
} from "kysely";
import type { AdapterDatabase, ServiceDatabase } from "./schema.js";

/** What the adapter answers: every port of the kit that belongs to the integration, over the
 *  shop's Kysely database (its callbacks and its own order changes get that handle). */
export type KyselyServiceAdapter<DB = unknown> = Kit.ServiceAdapter<Kysely<DB>>;

/** Options of both databases' adapters. */
export interface KyselyAdapterOptions<DB> extends Kit.ServiceAdapterOptions<Kysely<DB>> {
  /** The shop's Kysely database (any DB type: the adapter reads and writes its own tables). */
  db: Kysely<DB>;
  /** The shop's orders table, with the integration's columns (schema's ServiceOrderColumns).
   *  Default "orders"; a snake_case name, as its columns are. */
  ordersTable?: string;
}

/** A database's share: its transaction, its locks, its unique-violation code. */
export interface Locking {
  /** One transaction on one connection, rolled back when `fn` throws. */
  transaction<T>(fn: (q: Kysely<unknown>) => PromiseLike<T>): Promise<T>;
  /** The adapter's view's plugins after CamelCasePlugin (SQLite: its values' encoding). */
  plugins: KyselyPlugin[];
  /** The orders select locked until the transaction ends (PostgreSQL: FOR UPDATE; SQLite:
   *  the database's write lock taken first, if the transaction does not hold it yet). */
  forUpdate(select: OrdersSelect, q: View): OrdersSelect | Promise<OrdersSelect>;
  /** The retry job's select of due rows, skipping rows another runner holds (PostgreSQL: FOR
   *  UPDATE SKIP LOCKED; SQLite: as it is, one writer at a time). */
  skipLocked(select: DueSelect): DueSelect;
  /** The driver's unique-key violation (PostgreSQL SQLSTATE 23505; SQLite
   *  SQLITE_CONSTRAINT_UNIQUE or _PRIMARYKEY), answered as the kit's ConcurrentWriteError. */
  isUniqueViolation(error: unknown): boolean;
}

/** The adapter's view of the shop's database (the integration's tables, camelCase). */
export type View = Kysely<AdapterDatabase>;
type OrdersSelect = SelectQueryBuilder<AdapterDatabase, "orders", Kit.ShopOrder>;
type DueSelect = SelectQueryBuilder<AdapterDatabase, "serviceTradeInRegistrations", { id: string }>;
type Table = keyof ServiceDatabase;
type Row = Record<string, unknown>;
type Of<T extends Table> = ServiceDatabase[T];
type Key<T extends Table> = keyof Of<T> & string;

const camel = new CamelCasePlugin();

/** The error's driver code (pg's SQLSTATE, better-sqlite3's SQLITE_… name), if any. */
export const driverCode = (error: unknown) => (error as { code?: unknown } | null)?.code;

/** The kit's ports over the shop's database `options.db`, with the database's `locking`. */
export function kyselyAdapter<DB>(
  options: KyselyAdapterOptions<DB>,
  locking: Locking,
): KyselyServiceAdapter<DB> {
  const { db } = options;
  // The table is typed as "orders"; its SQL name is the shop's.
  const O = (options.ordersTable ?? "orders") as "orders";
  const N = "serviceNotifications";
  const R = "serviceTradeInRegistrations";
  const H = "serviceOrderHistory";
  const view = (q: Kysely<DB>): View =>
    [camel, ...locking.plugins].reduce((v, plugin) => v.withPlugin(plugin), q as unknown as View);
  const orders = (q: Kysely<DB>): OrdersSelect => view(q).selectFrom(O).select(SHOP_ORDER_FIELDS);
  const notifications = (q: Kysely<DB>) => view(q).selectFrom(N).selectAll();
  const oldestIn = (select: OrdersSelect, status: string, limit: number) =>
    select.where("status", "=", status).orderBy("createdAt").orderBy("id").limit(limit).execute();
  const one = async <T>(s: { executeTakeFirst(): Promise<T | undefined> }) =>
    (await s.executeTakeFirst()) ?? null;
  const some = async (s: { executeTakeFirst(): Promise<unknown> }) =>
    (await s.executeTakeFirst()) !== undefined;
  const changed = async (s: { executeTakeFirst(): Promise<{ numUpdatedRows: bigint }> }) =>
    Number((await s.executeTakeFirst()).numUpdatedRows);
  const oldestFirst = (select: ReturnType<typeof notifications>, limit?: number) => {
    const ordered = select.orderBy("receivedAt").orderBy("id");
    return (limit === undefined ? ordered : ordered.limit(limit)).execute();
  };

  // The statements by key of one table, typed at the call (the table's columns), loose inside.
  type Q = Kysely<DB>;
  const loose = (q: Q) => view(q) as unknown as Kysely<Record<string, Row>>;
  type Where<T extends Table> = Partial<Selectable<Of<T>>>;
  const find = <T extends Table>(q: Q, table: T, where: Where<T>) => {
    const rows = loose(q).selectFrom(table).selectAll();
    return one(rows.where((eb) => eb.and(where))) as Promise<Selectable<Of<T>> | null>;
  };
  const update = <T extends Table>(q: Q, table: T, where: Where<T>, set: Updateable<Of<T>>) => {
    const rows = loose(q).updateTable(table as string);
    return changed(rows.set(set).where((eb) => eb.and(where)));
  };
  const remove = <T extends Table>(q: Q, table: T, where: Where<T>) => {
    const rows = loose(q).deleteFrom(table as string);
    return rows.where((eb) => eb.and(where)).execute();
  };
  // INSERT … ON CONFLICT (key): DO UPDATE with `row` (its undefined fields left out, so they
  // stay as they were), or DO NOTHING, answering whether it inserted.
  const upsert = <T extends Table>(q: Q, table: T, key: Key<T>, row: Insertable<Of<T>>) => {
    const insert = loose(q).insertInto(table).values(row);
    return insert.onConflict((oc) => oc.column(key).doUpdateSet(row)).execute();
  };
  const insertOnce = <T extends Table>(q: Q, table: T, key: Key<T>, row: Insertable<Of<T>>) => {
    const insert = loose(q).insertInto(table).values(row);
    return some(insert.onConflict((oc) => oc.column(key).doNothing()).returning(key));
  };

  const store: Kit.ServiceRowStore<Kysely<DB>> = {
    // The transaction and the database's locks
    transaction: (fn) => locking.transaction((q) => fn(q as unknown as Kysely<DB>)),
    outside: async (fn) => fn(db),
    isUniqueViolation: (error) => locking.isUniqueViolation(error),
    async lockedOrders(q, keys: Kit.OrderKeys) {
      const wanted = (["id", "serviceOrderId", "cartId"] as const).filter((k) => keys[k]);
      if (wanted.length === 0) return [];
      const select = orders(q).where((eb) => eb.or(wanted.map((k) => eb(k, "=", `${keys[k]}`))));
      return (await locking.forUpdate(select, view(q))).execute();
    },
    leaseDueRegistrations(now, { limit, all, until }) {
      const v = view(db);
      let due = v.selectFrom(R).select("id").where("status", "=", "queued");
      if (!all) due = due.where("nextAttemptAt", "<=", now);
      due = locking.skipLocked(due.orderBy("nextAttemptAt").limit(limit));
      // One statement: the lease and the attempts it returns are one (shop-ports.ts `due`).
      const lease = v.updateTable(R).set({ nextAttemptAt: until }).where("id", "in", due);
      return lease.returning(["orderId", "attempts"]).execute();
    },

    // The shop's orders (the integration's columns)
    order: (q, id) => one(orders(q).where("id", "=", id)),
    async ordersByKeys(q, serviceOrderIds, cartIds) {
      const keys = [["serviceOrderId", serviceOrderIds] as const, ["cartId", cartIds] as const];
      const wanted = keys.filter(([, ids]) => ids.length > 0);
      if (wanted.length === 0) return [];
      return orders(q)
        .where((eb) => eb.or(wanted.map(([k, ids]) => eb(k, "in", ids))))
        .execute();
    },
    sessionOrder(q, sessionId, where) {
      let select = orders(q).where("sessionId", "=", sessionId);
      if ("cartId" in where) select = select.where("cartId", "=", where.cartId);
      else select = select.where("paymentMethod", "=", "service_pay");
      if ("since" in where) select = select.where("createdAt", ">=", where.since);
      return one(select.orderBy("createdAt", "desc").limit(1));
    },
    updateOrder: (q, id, values) =>
      one(view(q).updateTable(O).set(values).where("id", "=", id).returning(SHOP_ORDER_FIELDS)),
    ordersInStatus: (q, status, limit) => oldestIn(orders(q), status, limit),
    abandonedOrders(q, { status, before }, limit) {
      const guest = orders(q).where("customerId", "is", null).where("serviceOrderId", "is", null);
      const paid = guest.where("paymentMethod", "=", "service_pay").where("createdAt", "<", before);
      return oldestIn(paid, status, limit);
    },
    latestSessionOrders(q, sessionId, limit) {
      const all = view(q).selectFrom(O).select(["id", "number"]).orderBy("createdAt", "desc");
      return all.where("sessionId", "=", sessionId).limit(limit).execute();
    },

    // Order history
    insertHistory: (q, { from, to, ...row }) => {
      const line = { ...row, fromStatus: from, toStatus: to };
      return view(q).insertInto(H).values(line).execute();
    },
    deleteHistory: (q, orderId) => remove(q, H, { orderId }),
    history(q, orderId, { to, limit }) {
      const h = view(q).selectFrom(H).select(["toStatus as to", "note"]);
      let select = h.where("orderId", "=", orderId).orderBy("seq", "desc");
      if (to !== undefined) select = select.where("toStatus", "=", to);
      return (limit === undefined ? select : select.limit(limit)).execute();
    },

    // Kept checkouts
    checkout: (q, cartId) => find(q, "serviceCheckouts", { cartId }),
    saveCheckout: (q, row) => upsert(q, "serviceCheckouts", "cartId", row),
    saveCheckoutAsked: (q, where, asked) => update(q, "serviceCheckouts", where, asked),
    deleteCheckout: (q, cartId) => remove(q, "serviceCheckouts", { cartId }),

    // Notifications
    async insertNotifications(q, rows) {
      if (rows.length === 0) return [];
      const insert = view(q).insertInto(N).values(rows).returning("id");
      const ids = await insert.onConflict((oc) => oc.column("dedupeKey").doNothing()).execute();
      return ids.map((r) => r.id);
    },
    notification: (q, by) => find(q, N, by),
    notificationIdElsewhere(q, notificationId, dedupeKey) {
      const same = view(q).selectFrom(N).select("id").where("notificationId", "=", notificationId);
      return some(same.where("dedupeKey", "<>", dedupeKey));
    },
    settleNotification: (q, id, values) => update(q, N, { id }, values),
    claimStoredNotification: async (q, id) =>
      (await update(q, N, { id, outcome: "stored" }, { outcome: "early" })) === 1,
    unsettledNotifications(q, cartId, serviceOrderId, limit) {
      const about = { cartId, ...(serviceOrderId ? { serviceOrderId } : {}) };
      const these = notifications(q)
        .where("orderId", "is", null)
        .where((eb) => eb.or(about));
      return oldestFirst(these, limit);
    },
    storedNotifications(q, { limit, before }) {
      let select = notifications(q).where("outcome", "=", "stored");
      if (before) {
        const { id, cartId, serviceOrderId } = before;
        select = select.where((eb) => {
          // The row's own time read in the same statement: one round trip decides.
          const itsTime = eb.selectFrom(`${N} as b`).select("b.receivedAt").where("b.id", "=", id);
          return eb.and([
            eb.or({ ...(cartId ? { cartId } : {}), ...(serviceOrderId ? { serviceOrderId } : {}) }),
            eb.or([
              eb("receivedAt", "<", itsTime),
              eb.and([eb("receivedAt", "=", itsTime), eb("id", "<", id)]),
            ]),
          ]);
        });
      }
      return oldestFirst(select, limit);
    },
    notificationsOfOrders: async (q, ids, limit) =>
      ids.length === 0 ? [] : oldestFirst(notifications(q).where("orderId", "in", ids), limit),
    async reusedNotificationIds(q, limit) {
      const ids = view(q).selectFrom(N).select("notificationId").groupBy("notificationId");
      const named = ids.where("notificationId", "is not", null);
      const reused = named.having((eb) => eb.fn.countAll(), ">", 1);
      const rows = await reused.orderBy("notificationId").limit(limit).execute();
      return rows.map((r) => `${r.notificationId}`);
    },

    // Tokens and the renewal lease
    token: (q, id) => find(q, "serviceTokens", { id }),
    saveToken: (q, row) => upsert(q, "serviceTokens", "id", row),
    async renewLease(q, name, holder, expiresAt, now) {
      const lease = view(q).updateTable("serviceLeases").set({ holder, expiresAt });
      const free = lease.where((eb) =>
        eb.or([eb("expiresAt", "<=", now), eb("holder", "=", holder)]),
      );
      return (await changed(free.where("name", "=", name))) > 0;
    },
    insertLease: (q, name, holder, expiresAt) =>
      insertOnce(q, "serviceLeases", "name", { name, holder, expiresAt }),
    deleteLease: (q, name, holder) => remove(q, "serviceLeases", { name, holder }),

    // register-purchase rows and the seen trade-in
    registration: (q, orderId) => find(q, R, { orderId }),
    insertRegistration: (q, row) => insertOnce(q, R, "orderId", row),
    claimRegistration: async (q, id, attempts, until, updatedAt) =>
      (await changed(
        view(q)
          .updateTable(R)
          .set((eb) => ({ attempts: eb("attempts", "+", 1), nextAttemptAt: until, updatedAt }))
          .where((eb) => eb.and({ id, status: "queued", attempts })),
      )) === 1,
    updateRegistration: (q, id, values) => update(q, R, { id }, values),
    unreachableRegistrationSince(q, since) {
      const queued = view(q).selectFrom(R).select("id").where("updatedAt", ">=", since);
      return some(queued.where((eb) => eb.and({ status: "queued", unreachable: true })));
    },
    seenTradeIn: async (q, sessionId) =>
      (await find(q, "serviceSessionTradeIns", { sessionId }))?.tradeInId ?? null,
    saveSeenTradeIn: (q, sessionId, tradeInId, seenAt) =>
      upsert(q, "serviceSessionTradeIns", "sessionId", { sessionId, tradeInId, seenAt }),

    // The inspector's log
    insertLog: (q, row) => view(q).insertInto("serviceIntegrationLog").values(row).execute(),
    deleteLogBefore: (q, before) =>
      view(q).deleteFrom("serviceIntegrationLog").where("at", "<", before).execute(),
    readLog(q, key, afterSeq, limit) {
      const log = view(q).selectFrom("serviceIntegrationLog").selectAll().where("key", "=", key);
      return log.where("seq", ">", afterSeq).orderBy("seq", "desc").limit(limit).execute();
    },
  };
  return createServiceAdapter(store, options);
}
