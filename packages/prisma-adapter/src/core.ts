import { randomBytes } from "node:crypto";
import {
  createServiceAdapter,
  type OrderKeys,
  type ServiceAdapter,
  type ServiceAdapterOptions,
  type ServiceRowStore,
  type ShopOrder,
} from "@service-integration/kit";
import type { OrderRow, ServiceClient, ServiceModels } from "./client.js";

// The row store of the kit's service-rows.ts on the models of prisma/service.prisma, written
// once for both providers: Prisma's model API and its raw tagged templates read the same on
// PostgreSQL and SQLite, and each provider (./pg.ts, ./sqlite.ts) differs only in its locks.
// The rules over these rows are the kit's (createServiceAdapter).

export type Provider = "postgresql" | "sqlite";

/** prismaServiceAdapter's options (both providers): the kit's (the shop's callbacks, the token
 *  sealer) and the shop's Prisma client. */
export interface AdapterOptions<Q extends ServiceModels> extends ServiceAdapterOptions<Q> {
  /** The shop's Prisma client (generated from a schema holding prisma/service.prisma): its
   *  models are also what a transaction's client has (`Q`), so callbacks run on either. */
  db: Q & ServiceClient<Q>;
}

/** Every port of the kit's shop-ports.ts that belongs to the integration, on its models. */
export type PrismaServiceAdapter = ServiceAdapter<ServiceModels>;
export { sealedTokenRow } from "@service-integration/kit";
export type { OrderKeys as OrderLockKeys };

/** Prisma's unique-constraint error (P2002), on either provider's driver adapter. */
export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    (error as { code: unknown }).code === "P2002"
  );
}

/** A tagged template's arguments from pieces of SQL text and bound values (every second
 *  piece), for a statement whose shape depends on its input: the values stay parameters. */
function sql(texts: string[], values: unknown[]): [TemplateStringsArray, ...unknown[]] {
  return [Object.assign([...texts], { raw: texts }) as unknown as TemplateStringsArray, ...values];
}

const NOTIFICATION_COLUMNS = [
  "id",
  "dedupeKey",
  "notificationId",
  "event",
  "serviceOrderId",
  "cartId",
  "status",
  "amount",
  "currency",
  "tradeInDiscount",
  "form",
  "body",
  "outcome",
  "receivedAt",
] as const;

/** An id of a row inserted raw, shaped like @default(cuid())'s: it sorts by creation within a
 *  process (time, then a counter), so "newest first" by (createdAt, id) holds within a
 *  millisecond, as with cuid. */
let rowCount = 0;
function rowId(): string {
  rowCount = (rowCount + 1) % 36 ** 4;
  const time = Date.now().toString(36).padStart(9, "0");
  return `c${time}${rowCount.toString(36).padStart(4, "0")}${randomBytes(6).toString("hex")}`;
}

/** The kit's ShopOrder of an Order row (its own columns only, not the shop's others). */
function shopOrder({ createdAt: _, ...o }: OrderRow): ShopOrder {
  return o;
}
const maybeOrder = (o: OrderRow | null) => (o ? shopOrder(o) : null);
const oldestFirst = [{ receivedAt: "asc" as const }, { id: "asc" as const }];
/** A guest's Service Pay order that no notification named (abandonedOrders). */
const unnamedGuestPay = { paymentMethod: "service_pay", customerId: null, serviceOrderId: null };
type OrderWhere = Parameters<ServiceModels["order"]["findMany"]>[0]["where"];
const newestLine = [{ createdAt: "desc" as const }, { id: "desc" as const }];
const either = (cartId: string | null, serviceOrderId: string | null) => [
  ...(cartId ? [{ cartId }] : []),
  ...(serviceOrderId ? [{ serviceOrderId }] : []),
];

export function createPorts<Q extends ServiceModels>(
  provider: Provider,
  options: AdapterOptions<Q>,
): PrismaServiceAdapter {
  const { db } = options;
  const postgres = provider === "postgresql";
  const oldestOrders = async (q: Q, where: OrderWhere, take: number) =>
    (await q.order.findMany({ where, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take })).map(
      shopOrder,
    );

  /** The orders matching a key, locked until `tx` ends, in ONE raw statement (asked on every
   *  apply; Prisma compiles a model query on every call): PostgreSQL `SELECT … FOR UPDATE`;
   *  SQLite a no-op write returning the rows, which takes the one write lock. */
  async function lockedOrders(tx: ServiceModels, keys: OrderKeys): Promise<ShopOrder[]> {
    const id = keys.id ?? null;
    const serviceOrderId = keys.serviceOrderId ?? null;
    const cartId = keys.cartId ?? null;
    // A key given as null matches no row (`= NULL` is never true), so one statement serves.
    // SQLite: "total" is a column no key or index of the adapter's holds, so the write
    // touches nothing else.
    const rows = await (postgres
      ? tx.$queryRaw<OrderRow[]>`SELECT * FROM "Order"
        WHERE "id" = ${id} OR "serviceOrderId" = ${serviceOrderId} OR "cartId" = ${cartId}
        FOR UPDATE`
      : tx.$queryRaw<OrderRow[]>`UPDATE "Order" SET "total" = "total"
        WHERE "id" = ${id} OR "serviceOrderId" = ${serviceOrderId} OR "cartId" = ${cartId}
        RETURNING *`);
    return rows.map(shopOrder);
  }

  async function leaseDue(
    now: Date,
    { limit, all, until }: { limit: number; all: boolean; until: Date },
  ) {
    if (postgres) {
      // One statement leases a batch: rows another runner is leasing right now are skipped,
      // not waited for (FOR UPDATE SKIP LOCKED), so the instances' jobs split the queue.
      return all
        ? db.$queryRaw<{ orderId: string; attempts: number }[]>`
            UPDATE "TradeInRegistration" SET "nextAttemptAt" = ${until}
            WHERE "id" IN (
              SELECT "id" FROM "TradeInRegistration" WHERE "status" = 'queued'
              ORDER BY "nextAttemptAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
            RETURNING "orderId", "attempts"`
        : db.$queryRaw<{ orderId: string; attempts: number }[]>`
            UPDATE "TradeInRegistration" SET "nextAttemptAt" = ${until}
            WHERE "id" IN (
              SELECT "id" FROM "TradeInRegistration"
              WHERE "status" = 'queued' AND "nextAttemptAt" <= ${now}
              ORDER BY "nextAttemptAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
            RETURNING "orderId", "attempts"`;
    }
    // SQLite (one writer at a time): a conditional update per row; a row another runner moved
    // on in between (or whose attempt was claimed meanwhile) is not ours.
    const rows = await db.tradeInRegistration.findMany({
      where: { status: "queued", ...(all ? {} : { nextAttemptAt: { lte: now } }) },
      orderBy: { nextAttemptAt: "asc" },
      take: limit,
    });
    const claimed: { orderId: string; attempts: number }[] = [];
    for (const { id, orderId, attempts, nextAttemptAt } of rows) {
      const where = { id, status: "queued", nextAttemptAt, attempts };
      const taken = await db.tradeInRegistration.updateMany({
        where,
        data: { nextAttemptAt: until },
      });
      if (taken.count === 1) claimed.push({ orderId, attempts });
    }
    return claimed;
  }

  const store: ServiceRowStore<Q> = {
    transaction: async (fn) => db.$transaction(async (tx) => fn(tx)),
    outside: async (fn) => fn(db),
    isUniqueViolation,
    lockedOrders: async (tx, keys) =>
      keys.id || keys.serviceOrderId || keys.cartId ? lockedOrders(tx, keys) : [],
    leaseDueRegistrations: leaseDue,

    order: async (q, id) => maybeOrder(await q.order.findUnique({ where: { id } })),
    ordersByKeys: async (q, serviceOrderIds, cartIds) =>
      (
        await q.order.findMany({
          where: { OR: [{ serviceOrderId: { in: serviceOrderIds } }, { cartId: { in: cartIds } }] },
        })
      ).map(shopOrder),
    // One raw statement: every pending-order call without a cart asks it (a cookieless request
    // included), and Prisma compiles a model query on every call.
    sessionOrder: async (q, sessionId, where) => {
      const [row] =
        "cartId" in where
          ? await q.$queryRaw<OrderRow[]>`SELECT * FROM "Order"
            WHERE "cartId" = ${where.cartId} AND "sessionId" = ${sessionId} LIMIT 1`
          : await q.$queryRaw<OrderRow[]>`SELECT * FROM "Order"
            WHERE "sessionId" = ${sessionId} AND "paymentMethod" = 'service_pay'
              AND "createdAt" >= ${where.since}
            ORDER BY "createdAt" DESC LIMIT 1`;
      return maybeOrder(row ?? null);
    },
    updateOrder: async (q, id, data) => shopOrder(await q.order.update({ where: { id }, data })),
    ordersInStatus: (q, status, take) => oldestOrders(q, { status }, take),
    abandonedOrders: (q, { status, before }, take) =>
      oldestOrders(q, { status, ...unnamedGuestPay, createdAt: { lt: before } }, take),
    latestSessionOrders: (q, sessionId, take) =>
      q.order.findMany({ where: { sessionId }, orderBy: { createdAt: "desc" }, take }),

    // One raw statement, for the reason of `lockedOrders` (every apply of a notification adds
    // a line); the id and time are what @default(cuid()) and @default(now()) would give.
    insertHistory: (q, { orderId, from, to, source, note }) =>
      q.$executeRaw`INSERT INTO "OrderStatusChange"
        ("id", "orderId", "from", "to", "source", "note", "createdAt")
        VALUES (${rowId()}, ${orderId}, ${from}, ${to}, ${source}, ${note}, ${new Date()})`,
    deleteHistory: (q, orderId) => q.orderStatusChange.deleteMany({ where: { orderId } }),
    history: (q, orderId, { to, limit }) =>
      q.orderStatusChange.findMany({ where: { orderId, to }, orderBy: newestLine, take: limit }),

    checkout: (q, cartId) => q.serviceCheckout.findUnique({ where: { cartId } }),
    saveCheckout: (q, row) =>
      q.serviceCheckout.upsert({ where: { cartId: row.cartId }, create: row, update: row }),
    saveCheckoutAsked: (q, where, asked) =>
      q.serviceCheckout.updateMany({ where, data: { ...asked, updatedAt: where.updatedAt } }),
    deleteCheckout: (q, cartId) => q.serviceCheckout.deleteMany({ where: { cartId } }),

    async insertNotifications(q, rows) {
      // ONE multi-row INSERT … ON CONFLICT DO NOTHING RETURNING: built in pieces for the batch.
      const texts = [
        `INSERT INTO "ServiceNotification" ("${NOTIFICATION_COLUMNS.join('", "')}") VALUES (`,
      ];
      const values: unknown[] = [];
      rows.forEach((row, i) => {
        if (i > 0) texts[texts.length - 1] += "), (";
        NOTIFICATION_COLUMNS.forEach((column, k) => {
          if (k > 0) texts[texts.length - 1] += ", ";
          values.push(row[column]);
          texts.push("");
        });
      });
      texts[texts.length - 1] += `) ON CONFLICT ("dedupeKey") DO NOTHING RETURNING "id"`;
      const inserted = await q.$queryRaw<{ id: string }[]>(...sql(texts, values));
      return inserted.map((r) => r.id);
    },
    notification: (q, by) => q.serviceNotification.findFirst({ where: by }),
    async notificationIdElsewhere(q, notificationId, dedupeKey) {
      const other = await q.$queryRaw<unknown[]>`
        SELECT "id" FROM "ServiceNotification"
        WHERE "notificationId" = ${notificationId} AND "dedupeKey" <> ${dedupeKey} LIMIT 1`;
      return other.length > 0;
    },
    settleNotification: (q, id, { orderId, outcome, appliedAt }) =>
      q.$executeRaw`UPDATE "ServiceNotification"
        SET "orderId" = ${orderId}, "outcome" = ${outcome}, "appliedAt" = ${appliedAt}
        WHERE "id" = ${id}`,
    // PostgreSQL: a second UPDATE waits for the first and re-checks the condition.
    claimStoredNotification: async (q, id) =>
      (await q.$executeRaw`UPDATE "ServiceNotification" SET "outcome" = 'early'
        WHERE "id" = ${id} AND "outcome" = 'stored'`) === 1,
    unsettledNotifications: (q, cartId, serviceOrderId, take) => {
      const where = { orderId: null, OR: either(cartId, serviceOrderId) };
      return q.serviceNotification.findMany({ where, orderBy: oldestFirst, take });
    },
    async storedNotifications(q, { limit, before: b }) {
      // Asked on every apply: ONE raw statement decides (Prisma compiles a model query on every
      // call), the row's own time read in a self-join; COALESCE keeps SQLite's planner off the
      // (outcome, receivedAt) index, which walks every older stored row. A null key matches
      // nothing (docs/decisions/webhook-storage.md).
      const older =
        b &&
        (await q.$queryRaw<{ id: string }[]>`
          SELECT o."id" FROM "ServiceNotification" o, "ServiceNotification" r WHERE r."id" = ${b.id}
          AND COALESCE(o."outcome", '') = 'stored' AND o."id" <> r."id" AND o."receivedAt" < r."receivedAt"
          AND (o."cartId" = ${b.cartId} OR o."serviceOrderId" = ${b.serviceOrderId})`);
      if (older?.length === 0) return [];
      const where = older ? { id: { in: older.map((o) => o.id) } } : { outcome: "stored" };
      return q.serviceNotification.findMany({ where, orderBy: oldestFirst, take: limit });
    },
    notificationsOfOrders: (q, orderIds, take) =>
      q.serviceNotification.findMany({
        where: { orderId: { in: orderIds } },
        orderBy: oldestFirst,
        take,
      }),
    async reusedNotificationIds(q, limit) {
      const rows = await q.$queryRaw<{ notificationId: string }[]>`
        SELECT "notificationId" FROM "ServiceNotification" WHERE "notificationId" IS NOT NULL
        GROUP BY "notificationId" HAVING COUNT(*) > 1 ORDER BY "notificationId" LIMIT ${limit}`;
      return rows.map((r) => r.notificationId);
    },

    token: (q, id) => q.serviceToken.findUnique({ where: { id } }),
    saveToken: (q, row) =>
      q.serviceToken.upsert({ where: { id: row.id }, create: row, update: row }),
    renewLease: async (q, name, holder, expiresAt, now) =>
      (
        await q.lease.updateMany({
          where: { name, OR: [{ expiresAt: { lte: now } }, { holder }] },
          data: { holder, expiresAt },
        })
      ).count === 1,
    insertLease: async (q, name, holder, expiresAt) =>
      (await q.$executeRaw`INSERT INTO "Lease" ("name", "holder", "expiresAt")
        VALUES (${name}, ${holder}, ${expiresAt}) ON CONFLICT ("name") DO NOTHING`) === 1,
    deleteLease: (q, name, holder) => q.lease.deleteMany({ where: { name, holder } }),

    registration: async (q, orderId) => {
      const row = await q.tradeInRegistration.findUnique({ where: { orderId } });
      return row && { ...row, status: row.status as "queued" };
    },
    async insertRegistration(q, data) {
      try {
        await q.tradeInRegistration.create({ data });
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
    claimRegistration: async (q, id, attempts, until, updatedAt) =>
      (
        await q.tradeInRegistration.updateMany({
          where: { id, status: "queued", attempts },
          data: { attempts: attempts + 1, nextAttemptAt: until, updatedAt },
        })
      ).count === 1,
    updateRegistration: (q, id, data) => q.tradeInRegistration.update({ where: { id }, data }),
    unreachableRegistrationSince: async (q, since) =>
      (await q.tradeInRegistration.findFirst({
        where: { status: "queued", unreachable: true, updatedAt: { gte: since } },
      })) !== null,
    seenTradeIn: async (q, sessionId) =>
      (await q.sessionTradeIn.findUnique({ where: { sessionId } }))?.tradeInId ?? null,
    // One raw statement: every cookieless request to the host's trade-in-seen route is a new
    // session, and a model upsert costs Prisma's query compiler about a millisecond per call.
    saveSeenTradeIn: (q, sessionId, tradeInId, seenAt) =>
      q.$executeRaw`INSERT INTO "SessionTradeIn" ("sessionId", "tradeInId", "seenAt")
        VALUES (${sessionId}, ${tradeInId}, ${seenAt})
        ON CONFLICT ("sessionId") DO UPDATE SET "tradeInId" = ${tradeInId}, "seenAt" = ${seenAt}`,

    insertLog: (q, data) => q.integrationLogEntry.create({ data }),
    deleteLogBefore: (q, before) =>
      q.integrationLogEntry.deleteMany({ where: { at: { lt: before } } }),
    readLog: (q, key, afterSeq, take) =>
      q.integrationLogEntry.findMany({
        where: { key, seq: { gt: afterSeq } },
        orderBy: { seq: "desc" },
        take,
      }),
  };
  return createServiceAdapter<Q>(store, options) as unknown as PrismaServiceAdapter;
}
