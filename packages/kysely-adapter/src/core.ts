// The kit's row-level store (service-rows.ts of @service-integration/kit) written with Kysely,
// once for both databases: each method one statement of the integration's tables (or of the
// integration's columns of the shop's orders). What differs per database, the transaction, the
// row locks and the unique-violation code, comes in as `Locking` from ./pg.ts and ./sqlite.ts.
// Every rule (what runs in which transaction, claims, leases, pruning) is the kit's.
import {
  createServiceAdapter,
  type OrderKeys,
  type ServiceAdapter,
  type ServiceAdapterOptions,
  type ServiceRowStore,
  SHOP_ORDER_FIELDS,
  type ShopOrder,
} from "@service-integration/kit";
import { CamelCasePlugin, type Kysely, type KyselyPlugin, type SelectQueryBuilder } from "kysely";
import type { AdapterDatabase } from "./schema.js";

export type { CreateOrderParams, NewOrderColumns } from "@service-integration/kit";

/** What the adapter answers: every port of the kit that belongs to the integration, over the
 *  shop's Kysely database (its callbacks and its own order changes get that handle). */
export type KyselyServiceAdapter<DB = unknown> = ServiceAdapter<Kysely<DB>>;

/** Options of both databases' adapters. */
export interface KyselyAdapterOptions<DB> extends ServiceAdapterOptions<Kysely<DB>> {
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
  /** The plugins of the adapter's view beyond CamelCasePlugin (SQLite: its value encoding). */
  plugins: KyselyPlugin[];
  /** The orders select locked until the transaction ends (PostgreSQL: FOR UPDATE; SQLite:
   *  the database's write lock taken first, if the transaction does not hold it yet). */
  forUpdate(select: OrdersSelect, q: View): OrdersSelect | Promise<OrdersSelect>;
  /** The retry job's select of due rows, skipping rows another runner holds (PostgreSQL: FOR
   *  UPDATE SKIP LOCKED; SQLite: as it is, one writer at a time). */
  skipLocked(select: DueSelect): DueSelect;
  isUniqueViolation(error: unknown): boolean;
}

/** The adapter's view of the shop's database (the integration's tables, camelCase). */
export type View = Kysely<AdapterDatabase>;
type OrdersSelect = SelectQueryBuilder<AdapterDatabase, "orders", ShopOrder>;
type DueSelect = SelectQueryBuilder<AdapterDatabase, "serviceTradeInRegistrations", { id: string }>;

const camel = new CamelCasePlugin();

/** The error's driver code (pg's SQLSTATE, better-sqlite3's SQLITE_… name), if any. */
export function driverCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The kit's ports over the shop's database `options.db`, with the database's `locking`. */
export function kyselyAdapter<DB>(
  options: KyselyAdapterOptions<DB>,
  locking: Locking,
): KyselyServiceAdapter<DB> {
  const { db } = options;
  // The table is typed as "orders"; its SQL name is the shop's.
  const ordersName = (options.ordersTable ?? "orders") as "orders";
  const view = (q: Kysely<DB>): View =>
    locking.plugins.reduce(
      (v, plugin) => v.withPlugin(plugin),
      (q as unknown as View).withPlugin(camel),
    );
  const orders = (v: View): OrdersSelect => v.selectFrom(ordersName).select(SHOP_ORDER_FIELDS);
  const notifications = (v: View) => v.selectFrom("serviceNotifications").selectAll();
  const first = <T>(rows: T[]): T | null => rows[0] ?? null;
  const changed = (result: { numUpdatedRows: bigint } | { numDeletedRows: bigint }) =>
    Number("numUpdatedRows" in result ? result.numUpdatedRows : result.numDeletedRows);

  const store: ServiceRowStore<Kysely<DB>> = {
    transaction: (fn) => locking.transaction((q) => fn(q as unknown as Kysely<DB>)),
    outside: async (fn) => fn(db),
    isUniqueViolation: (error) => locking.isUniqueViolation(error),

    async lockedOrders(q, keys: OrderKeys) {
      const v = view(q);
      const wanted = (["id", "serviceOrderId", "cartId"] as const).filter((k) => keys[k]);
      if (wanted.length === 0) return [];
      const select = orders(v).where((eb) =>
        eb.or(wanted.map((k) => eb(k, "=", keys[k] as string))),
      );
      return (await locking.forUpdate(select, v)).execute();
    },

    async leaseDueRegistrations(now, { limit, all, until }) {
      const v = view(db);
      const due = v
        .selectFrom("serviceTradeInRegistrations")
        .select("id")
        .where("status", "=", "queued")
        .$if(!all, (s) => s.where("nextAttemptAt", "<=", now))
        .orderBy("nextAttemptAt")
        .limit(limit);
      // One statement: the lease and the attempts it returns are one (shop-ports.ts `due`).
      return v
        .updateTable("serviceTradeInRegistrations")
        .set({ nextAttemptAt: until })
        .where("id", "in", locking.skipLocked(due))
        .returning(["orderId", "attempts"])
        .execute();
    },

    order: async (q, id) => first(await orders(view(q)).where("id", "=", id).execute()),

    async ordersByKeys(q, serviceOrderIds, cartIds) {
      if (serviceOrderIds.length === 0 && cartIds.length === 0) return [];
      return orders(view(q))
        .where((eb) =>
          eb.or([
            ...(serviceOrderIds.length ? [eb("serviceOrderId", "in", serviceOrderIds)] : []),
            ...(cartIds.length ? [eb("cartId", "in", cartIds)] : []),
          ]),
        )
        .execute();
    },

    async sessionOrder(q, sessionId, where) {
      const rows = await orders(view(q))
        .where("sessionId", "=", sessionId)
        .$if("cartId" in where, (s) => s.where("cartId", "=", (where as { cartId: string }).cartId))
        .$if("since" in where, (s) =>
          s
            .where("paymentMethod", "=", "service_pay")
            .where("createdAt", ">=", (where as { since: Date }).since),
        )
        .orderBy("createdAt", "desc")
        .limit(1)
        .execute();
      return first(rows);
    },

    async updateOrder(q, id, values) {
      const rows = await view(q)
        .updateTable(ordersName)
        .set(values)
        .where("id", "=", id)
        .returning(SHOP_ORDER_FIELDS)
        .execute();
      return first(rows) as ShopOrder | null;
    },

    ordersInStatus: (q, status, limit) =>
      orders(view(q))
        .where("status", "=", status)
        .orderBy("createdAt")
        .orderBy("id")
        .limit(limit)
        .execute(),

    latestSessionOrders: (q, sessionId, limit) =>
      view(q)
        .selectFrom(ordersName)
        .select(["id", "number"])
        .where("sessionId", "=", sessionId)
        .orderBy("createdAt", "desc")
        .limit(limit)
        .execute(),

    insertHistory: (q, { from, to, ...row }) =>
      view(q)
        .insertInto("serviceOrderHistory")
        .values({ ...row, fromStatus: from, toStatus: to })
        .execute(),

    history: (q, orderId, { to, limit }) =>
      view(q)
        .selectFrom("serviceOrderHistory")
        .select(["toStatus as to", "note"])
        .where("orderId", "=", orderId)
        .$if(to !== undefined, (s) => s.where("toStatus", "=", to as string))
        .orderBy("seq", "desc")
        .$if(limit !== undefined, (s) => s.limit(limit as number))
        .execute(),

    checkout: async (q, cartId) =>
      first(
        await view(q)
          .selectFrom("serviceCheckouts")
          .selectAll()
          .where("cartId", "=", cartId)
          .execute(),
      ),

    saveCheckout: (q, { cartId, ...row }) =>
      view(q)
        .insertInto("serviceCheckouts")
        .values({ cartId, ...row })
        // Undefined valuation fields are left out of the update, so they stay as they were.
        .onConflict((oc) => oc.column("cartId").doUpdateSet(row))
        .execute(),

    deleteCheckout: (q, cartId) =>
      view(q).deleteFrom("serviceCheckouts").where("cartId", "=", cartId).execute(),

    async insertNotifications(q, rows) {
      if (rows.length === 0) return [];
      const inserted = await view(q)
        .insertInto("serviceNotifications")
        .values(rows)
        .onConflict((oc) => oc.column("dedupeKey").doNothing())
        .returning("id")
        .execute();
      return inserted.map((r) => r.id);
    },

    notification: async (q, by) =>
      first(
        await notifications(view(q))
          .$if("id" in by, (s) => s.where("id", "=", (by as { id: string }).id))
          .$if("dedupeKey" in by, (s) =>
            s.where("dedupeKey", "=", (by as { dedupeKey: string }).dedupeKey),
          )
          .execute(),
      ),

    async notificationIdElsewhere(q, notificationId, dedupeKey) {
      const rows = await view(q)
        .selectFrom("serviceNotifications")
        .select("id")
        .where("notificationId", "=", notificationId)
        .where("dedupeKey", "<>", dedupeKey)
        .limit(1)
        .execute();
      return rows.length > 0;
    },

    settleNotification: async (q, id, values) =>
      changed(
        await view(q)
          .updateTable("serviceNotifications")
          .set(values)
          .where("id", "=", id)
          .executeTakeFirstOrThrow(),
      ),

    claimStoredNotification: async (q, id) =>
      changed(
        await view(q)
          .updateTable("serviceNotifications")
          .set({ outcome: "early" })
          .where("id", "=", id)
          .where("outcome", "=", "stored")
          .executeTakeFirstOrThrow(),
      ) === 1,

    unsettledNotifications: (q, cartId, serviceOrderId, limit) =>
      notifications(view(q))
        .where("orderId", "is", null)
        .where((eb) =>
          eb.or([
            eb("cartId", "=", cartId),
            ...(serviceOrderId ? [eb("serviceOrderId", "=", serviceOrderId)] : []),
          ]),
        )
        .orderBy("receivedAt")
        .orderBy("id")
        .$if(limit !== undefined, (s) => s.limit(limit as number))
        .execute(),

    storedNotifications: (q, { limit, before }) =>
      notifications(view(q))
        .where("outcome", "=", "stored")
        .$if(before !== undefined, (s) =>
          s.where((eb) => {
            const { id, cartId, serviceOrderId } = before as NonNullable<typeof before>;
            // The row's own time read in the same statement: one round trip decides.
            const itsTime = eb
              .selectFrom("serviceNotifications as b")
              .select("b.receivedAt")
              .where("b.id", "=", id);
            return eb.and([
              eb.or([
                ...(cartId ? [eb("cartId", "=", cartId)] : []),
                ...(serviceOrderId ? [eb("serviceOrderId", "=", serviceOrderId)] : []),
              ]),
              eb("id", "<>", id),
              eb.or([
                eb("receivedAt", "<", itsTime),
                eb.and([eb("receivedAt", "=", itsTime), eb("id", "<", id)]),
              ]),
            ]);
          }),
        )
        .orderBy("receivedAt")
        .orderBy("id")
        .$if(limit !== undefined, (s) => s.limit(limit as number))
        .execute(),

    notificationsOfOrders: async (q, orderIds, limit) =>
      orderIds.length === 0
        ? []
        : notifications(view(q))
            .where("orderId", "in", orderIds)
            .orderBy("receivedAt")
            .orderBy("id")
            .limit(limit)
            .execute(),

    async reusedNotificationIds(q, limit) {
      const rows = await view(q)
        .selectFrom("serviceNotifications")
        .select("notificationId")
        .where("notificationId", "is not", null)
        .groupBy("notificationId")
        .having((eb) => eb.fn.countAll(), ">", 1)
        .orderBy("notificationId")
        .limit(limit)
        .execute();
      return rows.map((r) => r.notificationId as string);
    },

    token: async (q, id) =>
      first(await view(q).selectFrom("serviceTokens").selectAll().where("id", "=", id).execute()),

    saveToken: (q, { id, ...row }) =>
      view(q)
        .insertInto("serviceTokens")
        .values({ id, ...row })
        .onConflict((oc) => oc.column("id").doUpdateSet(row))
        .execute(),

    renewLease: async (q, name, holder, expiresAt, now) =>
      changed(
        await view(q)
          .updateTable("serviceLeases")
          .set({ holder, expiresAt })
          .where("name", "=", name)
          .where((eb) => eb.or([eb("expiresAt", "<=", now), eb("holder", "=", holder)]))
          .executeTakeFirstOrThrow(),
      ) > 0,

    insertLease: async (q, name, holder, expiresAt) =>
      (
        await view(q)
          .insertInto("serviceLeases")
          .values({ name, holder, expiresAt })
          .onConflict((oc) => oc.column("name").doNothing())
          .returning("name")
          .execute()
      ).length > 0,

    deleteLease: (q, name, holder) =>
      view(q)
        .deleteFrom("serviceLeases")
        .where("name", "=", name)
        .where("holder", "=", holder)
        .execute(),

    registration: async (q, orderId) =>
      first(
        await view(q)
          .selectFrom("serviceTradeInRegistrations")
          .selectAll()
          .where("orderId", "=", orderId)
          .execute(),
      ),

    insertRegistration: async (q, row) =>
      (
        await view(q)
          .insertInto("serviceTradeInRegistrations")
          .values(row)
          .onConflict((oc) => oc.column("orderId").doNothing())
          .returning("id")
          .execute()
      ).length > 0,

    claimRegistration: async (q, id, attempts, until, updatedAt) =>
      changed(
        await view(q)
          .updateTable("serviceTradeInRegistrations")
          .set((eb) => ({
            attempts: eb("attempts", "+", 1),
            nextAttemptAt: until,
            updatedAt,
          }))
          .where("id", "=", id)
          .where("status", "=", "queued")
          .where("attempts", "=", attempts)
          .executeTakeFirstOrThrow(),
      ) === 1,

    updateRegistration: (q, id, values) =>
      view(q).updateTable("serviceTradeInRegistrations").set(values).where("id", "=", id).execute(),

    async unreachableRegistrationSince(q, since) {
      const rows = await view(q)
        .selectFrom("serviceTradeInRegistrations")
        .select("id")
        .where("status", "=", "queued")
        .where("unreachable", "=", true)
        .where("updatedAt", ">=", since)
        .limit(1)
        .execute();
      return rows.length > 0;
    },

    seenTradeIn: async (q, sessionId) =>
      first(
        await view(q)
          .selectFrom("serviceSessionTradeIns")
          .select("tradeInId")
          .where("sessionId", "=", sessionId)
          .execute(),
      )?.tradeInId ?? null,

    saveSeenTradeIn: (q, sessionId, tradeInId, seenAt) =>
      view(q)
        .insertInto("serviceSessionTradeIns")
        .values({ sessionId, tradeInId, seenAt })
        .onConflict((oc) => oc.column("sessionId").doUpdateSet({ tradeInId, seenAt }))
        .execute(),

    insertLog: (q, row) => view(q).insertInto("serviceIntegrationLog").values(row).execute(),

    deleteLogBefore: (q, before) =>
      view(q).deleteFrom("serviceIntegrationLog").where("at", "<", before).execute(),

    readLog: (q, key, afterSeq, limit) =>
      view(q)
        .selectFrom("serviceIntegrationLog")
        .selectAll()
        .where("key", "=", key)
        .where("seq", ">", afterSeq)
        .orderBy("seq", "desc")
        .limit(limit)
        .execute(),
  };
  return createServiceAdapter(store, options);
}
