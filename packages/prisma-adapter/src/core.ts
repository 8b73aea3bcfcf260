import { randomUUID } from "node:crypto";
import {
  type AcceptedValuation,
  addressSchema,
  ConcurrentWriteError,
  type InspectorSource,
  type IntegrationLogStore,
  type KeptCheckout,
  type NotificationOutcome,
  type OrderChange,
  orderTotal,
  type PlacedOrder,
  type ServiceOrderStore,
  type ShopOrder,
  type ShopperSource,
  type StoredNotificationStore,
  type StoredNotificationTx,
  type StoredTokens,
  type TokenStore,
  type TradeInRegistration,
  type TradeInRegistrationStore,
  type WaitingNotification,
} from "@service-integration/kit";
import type { IntegrationEntry } from "@service-integration/kit/server";
import { z } from "zod";
import type { ShopCallbacks, TokenSealer } from "./callbacks.js";
import type {
  OrderRow,
  ServiceCheckoutRow,
  ServiceClient,
  ServiceModels,
  ServiceNotificationRow,
  TradeInRegistrationRow,
} from "./client.js";

// The ports on the models of prisma/service.prisma, written once for both providers: Prisma's
// model API and its raw tagged templates read the same on PostgreSQL and SQLite, and each
// provider (./pg.ts, ./sqlite.ts) supplies the locks that differ (shop-ports.ts names each lock
// and unique key).

export type Provider = "postgresql" | "sqlite";

export interface AdapterOptions<Q extends ServiceModels> {
  /** The shop's Prisma client (generated from a schema holding prisma/service.prisma): its
   *  models are also what a transaction's client has (`Q`), so callbacks run on either. */
  db: Q & ServiceClient<Q>;
  shop: ShopCallbacks<Q>;
  /** The kit's `createTokenSealer(key)` (@service-integration/kit/server). */
  sealer: TokenSealer;
  /** The token row's id (one per API user). Default "default". */
  tokenId?: string;
}

/** Every port of the kit's shop-ports.ts that belongs to the integration, on its models. */
export interface PrismaServiceAdapter {
  tokens: TokenStore;
  servicePay: StoredNotificationStore;
  tradeIns: TradeInRegistrationStore;
  orders: ServiceOrderStore;
  integrationLog: IntegrationLogStore;
  inspector: InspectorSource;
  /** The shop's ShopperSource, its kept checkout details read from the adapter's model. */
  shopper: ShopperSource;
  /** Remembers the trade-in this session's browser saw accepted (the SDK's valuation event):
   *  what TradeInRegistrationStore.tradeInSeen reads. */
  noteTradeInSeen(sessionId: string, tradeInId: string): Promise<void>;
  /**
   * The one writer of an order's status: the change and its history line, in the caller's
   * transaction `tx`. For the shop's own status changes (back office, card checkout), so its
   * history is written as the adapter writes it.
   */
  writeOrderChange(tx: ServiceModels, order: ShopOrder, change: OrderChange): Promise<OrderRow>;
  /**
   * Locks the shop's orders matching any of `keys` until `tx` ends, as the adapter does before
   * a change planned from what it read: PostgreSQL `SELECT … FOR UPDATE`; SQLite a no-op write,
   * which takes the one write lock.
   */
  lockOrders(tx: ServiceModels, keys: OrderLockKeys): Promise<void>;
}

export interface OrderLockKeys {
  id?: string | null;
  serviceOrderId?: string | null;
  cartId?: string | null;
}

/** Prisma's unique-constraint error (P2002), on either provider's driver adapter. */
export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    (error as { code: unknown }).code === "P2002"
  );
}

/** A value bound as a parameter of a raw statement built in pieces (see `sql`). */
class Param {
  constructor(readonly value: unknown) {}
}
const param = (value: unknown) => new Param(value);

/** A tagged template's arguments from pieces of SQL text and bound values, for a statement
 *  whose shape depends on its input (a batch of rows): the values stay parameters. */
function sql(parts: (string | Param)[]): [TemplateStringsArray, ...unknown[]] {
  const strings: string[] = [""];
  const values: unknown[] = [];
  for (const part of parts) {
    if (typeof part === "string") strings[strings.length - 1] += part;
    else {
      values.push(part.value);
      strings.push("");
    }
  }
  return [
    Object.assign(strings, { raw: [...strings] }) as unknown as TemplateStringsArray,
    ...values,
  ];
}

type SealedField = "accessToken" | "refreshToken" | "userId";

/**
 * The `ServiceToken` row's values for `tokens`, the secrets sealed: the row id and field are
 * bound in, so a sealed value opens only in its own row and field. What the token store saves;
 * also for seeding a row directly (a benchmark's database, before the server starts).
 */
export function sealedTokenRow(sealer: TokenSealer, tokenId: string, tokens: StoredTokens) {
  const seal = (field: SealedField) => sealer.seal(`${tokenId}:${field}`, tokens[field]);
  return {
    accessToken: seal("accessToken"),
    refreshToken: seal("refreshToken"),
    userId: seal("userId"),
    merchantId: tokens.merchantId,
    scope: tokens.scope,
    accessExpiresAt: tokens.accessExpiresAt,
  };
}

const LOG_LATEST = 100;
const LOG_PRUNE_EVERY = 200;
const DAY_MS = 24 * 60 * 60 * 1000;
const oldestFirst = [{ receivedAt: "asc" as const }, { id: "asc" as const }];

const detailsSchema = z.object({
  email: z.string(),
  billing: addressSchema,
  shipping: addressSchema,
  shippingMethod: z.string(),
});

function valuationOf(v: AcceptedValuation): AcceptedValuation {
  const { valuationState, valuationItemId, valuationValue, valuationCurrency, valuationNote } = v;
  return { valuationState, valuationItemId, valuationValue, valuationCurrency, valuationNote };
}

/** The kit's ShopOrder of an Order row (its own columns only). */
function shopOrder(o: OrderRow): ShopOrder {
  return {
    id: o.id,
    number: o.number,
    cartId: o.cartId,
    sessionId: o.sessionId,
    customerId: o.customerId,
    status: o.status,
    serviceOrderId: o.serviceOrderId,
    paymentMethod: o.paymentMethod,
    currency: o.currency,
    price: o.price,
    tax: o.tax,
    shippingPrice: o.shippingPrice,
    discountTotal: o.discountTotal,
    tradeInDiscount: o.tradeInDiscount,
    total: o.total,
    tradeInStatus: o.tradeInStatus,
    tradeInMessage: o.tradeInMessage,
    ...valuationOf(o),
  };
}
const maybeOrder = (o: OrderRow | null) => (o ? shopOrder(o) : null);

/** The kept details of a row, or null when they no longer read as valid details. */
function keptCheckout(row: ServiceCheckoutRow): KeptCheckout | null {
  let details: z.ZodSafeParseResult<z.infer<typeof detailsSchema>>;
  try {
    details = detailsSchema.safeParse({
      email: row.email,
      billing: JSON.parse(row.billing),
      shipping: JSON.parse(row.shipping),
      shippingMethod: row.shippingMethod,
    });
  } catch {
    return null;
  }
  if (!details.success) return null;
  return {
    cartId: row.cartId,
    sessionId: row.sessionId,
    customerId: row.customerId,
    details: details.data,
    keptAt: row.updatedAt,
    ...valuationOf(row),
  };
}

/** A stored notification (its columns as the webhook stored them, not how it ended). */
function waiting(row: ServiceNotificationRow): WaitingNotification {
  return {
    id: row.id,
    dedupeKey: row.dedupeKey,
    notificationId: row.notificationId,
    event: row.event,
    serviceOrderId: row.serviceOrderId,
    cartId: row.cartId,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    tradeInDiscount: row.tradeInDiscount,
    // Not a column: the customer is the order's (the webhook's apply reads it from there).
    customerId: null,
    form: row.form === "data" ? "data" : "flat",
    body: row.body,
  };
}

function registration(row: TradeInRegistrationRow): TradeInRegistration {
  return {
    id: row.id,
    orderId: row.orderId,
    sessionHash: row.sessionHash,
    cart: row.cart,
    orderAmount: row.orderAmount,
    customerId: row.customerId,
    status: row.status as TradeInRegistration["status"],
    precheck: row.precheck,
    attempts: row.attempts,
    unreachable: row.unreachable,
  };
}

const NOTIFICATION_COLUMNS = `"id", "dedupeKey", "notificationId", "event", "serviceOrderId",
  "cartId", "status", "amount", "currency", "tradeInDiscount", "form", "body", "outcome",
  "receivedAt"`;

export function createPorts<Q extends ServiceModels>(
  provider: Provider,
  options: AdapterOptions<Q>,
): PrismaServiceAdapter {
  const { db, shop, sealer } = options;
  const tokenId = options.tokenId ?? "default";
  const statuses = shop.statuses;
  const postgres = provider === "postgresql";

  /** Runs `fn` in one interactive transaction; a unique key taken by another writer: the
   *  kit's ConcurrentWriteError. */
  async function transaction<T>(fn: (tx: Q) => Promise<T>): Promise<T> {
    try {
      return await db.$transaction(fn);
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ConcurrentWriteError("unique key taken", { cause: error });
      throw error;
    }
  }

  async function lockOrders(tx: ServiceModels, keys: OrderLockKeys): Promise<void> {
    const id = keys.id ?? null;
    const serviceOrderId = keys.serviceOrderId ?? null;
    const cartId = keys.cartId ?? null;
    if (id === null && serviceOrderId === null && cartId === null) return;
    // A key given as null matches no row (`= NULL` is never true), so one statement serves.
    if (postgres) {
      await tx.$queryRaw`SELECT "id" FROM "Order"
        WHERE "id" = ${id} OR "serviceOrderId" = ${serviceOrderId} OR "cartId" = ${cartId}
        FOR UPDATE`;
    } else {
      // Any write takes SQLite's one write lock, held until the transaction ends; "total" is a
      // column no key or index of the adapter's holds, so the statement touches nothing else.
      await tx.$executeRaw`UPDATE "Order" SET "total" = "total"
        WHERE "id" = ${id} OR "serviceOrderId" = ${serviceOrderId} OR "cartId" = ${cartId}`;
    }
  }

  async function placedOrder(q: Q, orderId: string): Promise<PlacedOrder | null> {
    const row = await q.order.findUnique({ where: { id: orderId } });
    if (!row) return null;
    const order = shopOrder(row);
    return { ...order, ...(await shop.placedOrder(q, order)) };
  }

  async function writeOrderChange(tx: ServiceModels, order: ShopOrder, change: OrderChange) {
    const tradeInDiscount = change.tradeInDiscount ?? order.tradeInDiscount;
    const to = change.to ?? order.status;
    const updated = await tx.order.update({
      where: { id: order.id },
      data: {
        status: to,
        tradeInDiscount,
        total: orderTotal({ ...order, tradeInDiscount }),
        ...(change.serviceOrderId !== undefined ? { serviceOrderId: change.serviceOrderId } : {}),
        ...(change.tradeInStatus !== undefined ? { tradeInStatus: change.tradeInStatus } : {}),
        ...(change.tradeInMessage !== undefined ? { tradeInMessage: change.tradeInMessage } : {}),
      },
    });
    await tx.orderStatusChange.create({
      data: {
        orderId: order.id,
        from: order.status,
        to,
        source: change.source,
        note: change.note.slice(0, 1000),
      },
    });
    return updated;
  }

  async function loadCheckout(q: ServiceModels, cartId: string): Promise<KeptCheckout | null> {
    const row = await q.serviceCheckout.findUnique({ where: { cartId } });
    return row ? keptCheckout(row) : null;
  }

  // -------------------------------------------------------------------------------------------
  // Kept checkouts and notifications

  function servicePayTx(tx: Q): StoredNotificationTx {
    return {
      openCartId: (sessionId) => shop.openCartId(tx, sessionId),

      async findSessionOrder(sessionId, where) {
        const row =
          "cartId" in where
            ? await tx.order.findFirst({ where: { cartId: where.cartId, sessionId } })
            : await tx.order.findFirst({
                where: { sessionId, paymentMethod: "service_pay", createdAt: { gte: where.since } },
                orderBy: { createdAt: "desc" },
              });
        return maybeOrder(row);
      },

      async saveCheckout({ cartId, sessionId, customerId, details, valuation }) {
        const data = {
          sessionId,
          customerId,
          email: details.email,
          billing: JSON.stringify(details.billing),
          shipping: JSON.stringify(details.shipping),
          shippingMethod: details.shippingMethod,
          updatedAt: new Date(),
          ...(valuation ? valuationOf(valuation) : {}),
        };
        // Unique key: the cart id (an upsert by it), so one cart keeps one set of details.
        await tx.serviceCheckout.upsert({
          where: { cartId },
          create: { cartId, ...data },
          update: data,
        });
      },

      loadCheckout: (cartId) => loadCheckout(tx, cartId),

      async dropCheckout(cartId) {
        await tx.serviceCheckout.deleteMany({ where: { cartId } });
      },

      async createPendingOrder({
        status,
        sessionId,
        customerId,
        details,
        valuation,
        shopBaseUrl,
        note,
      }) {
        const v = valuationOf(valuation);
        const found = v.valuationState
          ? `accepted valuation ${v.valuationState} (${v.valuationNote ?? ""})`
          : "no accepted valuation was looked up at payment start";
        const firstNote = `${note}; ${found}`;
        const id = await shop.createOrder(tx, {
          sessionId,
          customerId,
          details,
          valuation: v,
          shopBaseUrl,
          note: firstNote,
          columns: {
            sessionId,
            customerId,
            status,
            paymentMethod: "service_pay",
            tradeInDiscount: 0,
            ...v,
          },
        });
        if (id === null) return null;
        await tx.orderStatusChange.create({
          data: {
            orderId: id,
            from: null,
            to: status,
            source: "shop",
            note: firstNote.slice(0, 1000),
          },
        });
        const order = await tx.order.findUnique({ where: { id } });
        if (!order) throw new Error(`createOrder answered ${id}, which is no order`);
        return shopOrder(order);
      },

      async claimNotification(n) {
        // Unique key: the dedupe key; the insert's conflict decides, so copies insert once.
        const id = randomUUID();
        const inserted = await tx.$executeRaw`
          INSERT INTO "ServiceNotification" ("id", "dedupeKey", "notificationId", "event",
            "serviceOrderId", "cartId", "status", "amount", "currency", "tradeInDiscount",
            "form", "body", "outcome", "receivedAt")
          VALUES (${id}, ${n.dedupeKey}, ${n.notificationId}, ${n.event}, ${n.serviceOrderId},
            ${n.cartId}, ${n.status}, ${n.amount}, ${n.currency}, ${n.tradeInDiscount},
            ${n.form}, ${n.body}, 'early', ${new Date()})
          ON CONFLICT ("dedupeKey") DO NOTHING`;
        return inserted === 1 ? id : null;
      },

      async notificationIdTaken(notificationId, dedupeKey) {
        const other = await tx.$queryRaw<{ id: string }[]>`
          SELECT "id" FROM "ServiceNotification"
          WHERE "notificationId" = ${notificationId} AND "dedupeKey" <> ${dedupeKey}
          LIMIT 1`;
        return other.length > 0;
      },

      async notificationOutcome(dedupeKey) {
        const row = await tx.serviceNotification.findUnique({ where: { dedupeKey } });
        return row ? { outcome: row.outcome as NotificationOutcome, orderId: row.orderId } : null;
      },

      async settleNotification(id, orderId, outcome) {
        const settled = await tx.$executeRaw`
          UPDATE "ServiceNotification"
          SET "orderId" = ${orderId}, "outcome" = ${outcome}, "appliedAt" = ${new Date()}
          WHERE "id" = ${id}`;
        if (settled !== 1) throw new Error(`no stored notification ${id} to settle`);
      },

      async waitingNotifications(cartId, serviceOrderId) {
        const rows = await tx.serviceNotification.findMany({
          where: {
            orderId: null,
            OR: [{ cartId }, ...(serviceOrderId ? [{ serviceOrderId }] : [])],
          },
          orderBy: oldestFirst,
        });
        return rows.map(waiting);
      },

      async hasWaitingNotification(cartId) {
        const row = await tx.serviceNotification.findFirst({ where: { cartId, orderId: null } });
        return row !== null;
      },

      async findOrderFor(serviceOrderId, cartId) {
        // Locked before it is read: the notification's change is planned from this row, so a
        // second transaction waits here until the first commits (shop-ports.ts findOrderFor).
        if (!serviceOrderId && !cartId) return null;
        await lockOrders(tx, { serviceOrderId, cartId });
        const rows = await tx.order.findMany({
          where: {
            OR: [...(serviceOrderId ? [{ serviceOrderId }] : []), ...(cartId ? [{ cartId }] : [])],
          },
          take: 2,
        });
        return maybeOrder(
          rows.find((r) => serviceOrderId && r.serviceOrderId === serviceOrderId) ??
            rows[0] ??
            null,
        );
      },

      async statusHistory(orderId) {
        const rows = await tx.orderStatusChange.findMany({
          where: { orderId },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        });
        return rows.map((r) => r.to);
      },

      changeOrder: async (order, change) => shopOrder(await writeOrderChange(tx, order, change)),

      async claimStored(id) {
        // One conditional UPDATE: the database lets one transaction move the row off "stored"
        // (PostgreSQL: a second UPDATE waits for the first and re-checks the condition).
        const taken = await tx.$executeRaw`
          UPDATE "ServiceNotification" SET "outcome" = 'early'
          WHERE "id" = ${id} AND "outcome" = 'stored'`;
        return taken === 1;
      },

      async storedBefore(id, cartId, serviceOrderId) {
        const of: (string | Param)[] = [];
        if (cartId) of.push(`o."cartId" = `, param(cartId));
        if (cartId && serviceOrderId) of.push(" OR ");
        if (serviceOrderId) of.push(`o."serviceOrderId" = `, param(serviceOrderId));
        if (of.length === 0) return [];
        // Asked once per apply, and there is usually no older row: ONE raw statement decides,
        // the row's own time read in a self-join, through the cart's and the service order's
        // indexes. Raw, because Prisma compiles every model query on every call (about 0.8 ms
        // of CPU against 0.1 ms for a raw one); COALESCE keeps SQLite's planner off the
        // (outcome, receivedAt) index, which walks every stored row older than this one (the
        // backlog, when rows are applied out of order). The rows are read only when there are
        // some (docs/decisions/webhook-storage.md).
        const older = await tx.$queryRaw<{ id: string }[]>(
          ...sql([
            `SELECT o."id" FROM "ServiceNotification" o, "ServiceNotification" r WHERE r."id" = `,
            param(id),
            ` AND COALESCE(o."outcome", '') = 'stored' AND o."id" <> r."id"`,
            ` AND o."receivedAt" < r."receivedAt" AND (`,
            ...of,
            ")",
          ]),
        );
        if (older.length === 0) return [];
        const rows = await tx.serviceNotification.findMany({
          where: { id: { in: older.map((o) => o.id) } },
          orderBy: oldestFirst,
        });
        return rows.map(waiting);
      },
    };
  }

  const servicePay: StoredNotificationStore = {
    transaction: (fn) => transaction((tx) => fn(servicePayTx(tx))),

    // Asked on every cart page view: two reads, no transaction (nothing is written).
    async openCartCheckout(sessionId) {
      const cartId = await shop.openCartId(db, sessionId);
      if (!cartId) return null;
      const kept = await loadCheckout(db, cartId);
      return kept && kept.sessionId === sessionId ? kept : null;
    },

    async storeBatch(notifications) {
      // ONE multi-row INSERT … ON CONFLICT DO NOTHING in one transaction: one commit for the
      // batch (contract, Merchant endpoints rule 2). The first copy of a key in the batch wins.
      // Inside a transaction on purpose: Prisma's SQLite adapter serialises its transactions
      // but runs a lone statement on the same connection, where it would join an open one.
      const ids = new Map<string, string>();
      const at = Date.now();
      const parts: (string | Param)[] = [
        `INSERT INTO "ServiceNotification" (${NOTIFICATION_COLUMNS}) VALUES `,
      ];
      notifications.forEach((n, i) => {
        if (ids.has(n.dedupeKey)) return;
        const id = randomUUID();
        ids.set(n.dedupeKey, id);
        if (ids.size > 1) parts.push(", ");
        // Arrival order inside the batch, so oldest-first reads apply them as they came.
        const values = [
          id,
          n.dedupeKey,
          n.notificationId,
          n.event,
          n.serviceOrderId,
          n.cartId,
          n.status,
          n.amount,
          n.currency,
          n.tradeInDiscount,
          n.form,
          n.body,
          "stored",
          new Date(at + i),
        ];
        parts.push("(");
        values.forEach((value, k) => {
          if (k > 0) parts.push(", ");
          parts.push(param(value));
        });
        parts.push(")");
      });
      if (ids.size === 0) return notifications.map(() => null);
      parts.push(` ON CONFLICT ("dedupeKey") DO NOTHING RETURNING "id"`);
      const inserted = await transaction(
        async (tx) => await tx.$queryRaw<{ id: string }[]>(...sql(parts)),
      );
      const fresh = new Set(inserted.map((r) => r.id));
      const seen = new Set<string>();
      return notifications.map((n) => {
        const id = ids.get(n.dedupeKey) as string;
        if (seen.has(id) || !fresh.has(id)) return null;
        seen.add(id);
        return id;
      });
    },

    async unapplied(limit) {
      const rows = await db.serviceNotification.findMany({
        where: { outcome: "stored" },
        orderBy: oldestFirst,
        take: limit,
      });
      return rows.map(waiting);
    },
  };

  // -------------------------------------------------------------------------------------------
  // Tokens and the renewal lease

  // The row id is bound in, so a sealed value opens only in its own row and field.
  const open = (field: SealedField, value: string) => sealer.open(`${tokenId}:${field}`, value);
  const leaseName = `service-token-renewal:${tokenId}`;

  const tokens: TokenStore = {
    async load() {
      const row = await db.serviceToken.findUnique({ where: { id: tokenId } });
      if (!row) return null;
      const accessToken = open("accessToken", row.accessToken);
      const refreshToken = open("refreshToken", row.refreshToken);
      const userId = open("userId", row.userId);
      // Under another key (or tampered): no tokens, so the token manager logs in again.
      if (accessToken === null || refreshToken === null || userId === null) return null;
      const { merchantId, scope, accessExpiresAt } = row;
      return { accessToken, refreshToken, userId, merchantId, scope, accessExpiresAt };
    },
    async save(t) {
      const data = sealedTokenRow(sealer, tokenId, t);
      // Upsert: the first login creates the row, every refresh replaces it in one statement.
      await db.serviceToken.upsert({
        where: { id: tokenId },
        create: { id: tokenId, ...data },
        update: data,
      });
    },
    async acquireRenewalLease(holder, ttlMs) {
      // One conditional UPDATE (free, expired or already ours): atomic on SQLite (one writer)
      // and on PostgreSQL (a second UPDATE of the row waits and re-checks the condition). The
      // first take of a name is an INSERT whose primary key lets one instance win.
      const now = new Date();
      const expiresAt = new Date(now.getTime() + ttlMs);
      const taken = await db.lease.updateMany({
        where: { name: leaseName, OR: [{ expiresAt: { lte: now } }, { holder }] },
        data: { holder, expiresAt },
      });
      if (taken.count === 1) return true;
      try {
        await db.lease.create({ data: { name: leaseName, holder, expiresAt } });
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
    async releaseRenewalLease(holder) {
      await db.lease.deleteMany({ where: { name: leaseName, holder } });
    },
  };

  // -------------------------------------------------------------------------------------------
  // register-purchase rows and the retry job

  const tradeIns: TradeInRegistrationStore = {
    order: (orderId) => placedOrder(db, orderId),

    async find(orderId) {
      const row = await db.tradeInRegistration.findUnique({ where: { orderId } });
      return row ? registration(row) : null;
    },

    async create(row) {
      // Unique key: the order id; the insert's conflict decides, never a read first.
      try {
        await db.tradeInRegistration.create({
          data: {
            orderId: row.orderId,
            sessionHash: row.sessionHash,
            cart: row.cart,
            orderAmount: row.orderAmount,
            customerId: row.customerId,
            status: row.status,
            // Every field as given (shop-ports.ts create): no database default relied on.
            precheck: row.precheck,
            attempts: row.attempts,
            unreachable: row.unreachable,
            nextAttemptAt: row.nextAttemptAt,
          },
        });
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    async claim(row, until) {
      // Compare-and-set on `attempts`: one conditional UPDATE.
      const claimed = await db.tradeInRegistration.updateMany({
        where: { id: row.id, status: "queued", attempts: row.attempts },
        data: { attempts: row.attempts + 1, nextAttemptAt: until },
      });
      return claimed.count === 1;
    },

    async finish(row, result, change) {
      await transaction(async (tx) => {
        await tx.tradeInRegistration.update({ where: { id: row.id }, data: result });
        if (!change) return;
        await lockOrders(tx, { id: row.orderId });
        const order = await tx.order.findUnique({ where: { id: row.orderId } });
        if (!order) throw new Error(`no order ${row.orderId} for registration ${row.id}`);
        if (order.tradeInStatus === change.tradeInStatus) return;
        await writeOrderChange(tx, shopOrder(order), { source: "service", ...change });
      });
    },

    async due(now, { limit, all, until }) {
      if (postgres) {
        // One statement leases a batch: rows another runner is leasing right now are skipped,
        // not waited for (FOR UPDATE SKIP LOCKED), so the instances' jobs split the queue.
        const rows = all
          ? await db.$queryRaw<{ orderId: string; attempts: number }[]>`
              UPDATE "TradeInRegistration" SET "nextAttemptAt" = ${until}
              WHERE "id" IN (
                SELECT "id" FROM "TradeInRegistration" WHERE "status" = 'queued'
                ORDER BY "nextAttemptAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
              RETURNING "orderId", "attempts"`
          : await db.$queryRaw<{ orderId: string; attempts: number }[]>`
              UPDATE "TradeInRegistration" SET "nextAttemptAt" = ${until}
              WHERE "id" IN (
                SELECT "id" FROM "TradeInRegistration"
                WHERE "status" = 'queued' AND "nextAttemptAt" <= ${now}
                ORDER BY "nextAttemptAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
              RETURNING "orderId", "attempts"`;
        return rows.map((r) => ({ orderId: r.orderId, attempts: Number(r.attempts) }));
      }
      // SQLite (one writer at a time): a conditional update per row; a row another runner moved
      // on in between is not ours.
      const rows = await db.tradeInRegistration.findMany({
        where: { status: "queued", ...(all ? {} : { nextAttemptAt: { lte: now } }) },
        orderBy: { nextAttemptAt: "asc" },
        take: limit,
      });
      const claimed: { orderId: string; attempts: number }[] = [];
      for (const row of rows) {
        // Leased only as read: not moved on by another runner, no attempt claimed in between.
        const taken = await db.tradeInRegistration.updateMany({
          where: {
            id: row.id,
            status: "queued",
            nextAttemptAt: row.nextAttemptAt,
            attempts: row.attempts,
          },
          data: { nextAttemptAt: until },
        });
        if (taken.count === 1) claimed.push({ orderId: row.orderId, attempts: row.attempts });
      }
      return claimed;
    },

    async tradeInSeen(sessionId) {
      const row = await db.sessionTradeIn.findUnique({ where: { sessionId } });
      return row?.tradeInId ?? null;
    },

    async unreachableSince(since) {
      // The attempt's own flag (typed, not read out of lastError's text).
      const row = await db.tradeInRegistration.findFirst({
        where: { status: "queued", unreachable: true, updatedAt: { gte: since } },
      });
      return row !== null;
    },
  };

  // -------------------------------------------------------------------------------------------
  // The back office's orders

  const orders: ServiceOrderStore = {
    order: (orderId) => placedOrder(db, orderId),

    async changeOrder(order, change) {
      await transaction(async (tx) => {
        // Written against the order as it is now, locked: a notification may have moved it
        // since the caller read it (shop-ports.ts ServiceOrderStore.changeOrder).
        await lockOrders(tx, { id: order.id });
        const current = await tx.order.findUnique({ where: { id: order.id } });
        if (!current) throw new Error(`no order ${order.id} to change`);
        const keep =
          change.to !== undefined &&
          current.status !== order.status &&
          current.status !== change.to &&
          !statuses.canTransition(current.status, change.to);
        await writeOrderChange(
          tx,
          shopOrder(current),
          keep ? { ...change, to: undefined } : change,
        );
      });
    },

    async findOrders(serviceOrderIds, cartIds) {
      if (serviceOrderIds.length === 0 && cartIds.length === 0) return [];
      const rows = await db.order.findMany({
        where: { OR: [{ serviceOrderId: { in: serviceOrderIds } }, { cartId: { in: cartIds } }] },
      });
      return rows.map(shopOrder);
    },

    async needsAttention() {
      const held = await db.order.findMany({
        where: { status: statuses.held },
        orderBy: { createdAt: "asc" },
        take: 100,
      });
      const withNotes = [];
      for (const order of held) {
        const [line] = await db.orderStatusChange.findMany({
          where: { orderId: order.id, to: statuses.held },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          take: 1,
        });
        withNotes.push({ ...shopOrder(order), heldBecause: line?.note ?? "" });
      }
      const reused = await db.$queryRaw<{ notificationId: string }[]>`
        SELECT "notificationId" FROM "ServiceNotification"
        WHERE "notificationId" IS NOT NULL
        GROUP BY "notificationId" HAVING COUNT(*) > 1
        ORDER BY "notificationId" LIMIT 100`;
      return { held: withNotes, reusedNotificationIds: reused.map((r) => r.notificationId) };
    },
  };

  // -------------------------------------------------------------------------------------------
  // The inspector's log and webhook entries

  let writes = 0;
  const integrationLog: IntegrationLogStore = {
    async append(key, entry) {
      await db.integrationLogEntry.create({
        data: {
          key,
          at: new Date(entry.at),
          kind: entry.kind,
          label: entry.label,
          status: entry.status ?? null,
          ok: entry.ok,
          durationMs: entry.durationMs ?? null,
          detail: entry.detail ?? "",
          expected: entry.expected ?? null,
        },
      });
      writes += 1;
      // A demo and debugging aid: entries older than a day go, every few hundred writes.
      if (writes % LOG_PRUNE_EVERY === 0) {
        await db.integrationLogEntry.deleteMany({
          where: { at: { lt: new Date(Date.now() - DAY_MS) } },
        });
      }
    },
    async read(key, afterSeq) {
      const rows = await db.integrationLogEntry.findMany({
        where: { key, seq: { gt: afterSeq } },
        orderBy: { seq: "desc" },
        take: LOG_LATEST,
      });
      return rows.reverse().map(
        (row): IntegrationEntry => ({
          seq: row.seq,
          at: row.at.toISOString(),
          kind: row.kind as IntegrationEntry["kind"],
          label: row.label,
          ok: row.ok,
          ...(row.status !== null ? { status: row.status } : {}),
          ...(row.durationMs !== null ? { durationMs: row.durationMs } : {}),
          ...(row.detail ? { detail: row.detail } : {}),
          ...(row.expected ? { expected: row.expected } : {}),
        }),
      );
    },
  };

  const inspector: InspectorSource = {
    async sessionNotifications(sessionId) {
      const latest = await db.order.findMany({
        where: { sessionId },
        orderBy: { createdAt: "desc" },
        take: 10,
      });
      if (latest.length === 0) return [];
      const numbers = new Map(latest.map((o) => [o.id, o.number]));
      const rows = await db.serviceNotification.findMany({
        where: { orderId: { in: latest.map((o) => o.id) } },
        orderBy: oldestFirst,
        take: 50,
      });
      return rows.map((n) => ({
        receivedAt: n.receivedAt,
        event: n.event,
        status: n.status,
        outcome: n.outcome,
        orderNumber: numbers.get(n.orderId ?? "") ?? "?",
      }));
    },
  };

  const shopper: ShopperSource = {
    customer: (id) => shop.shopper.customer(id),
    openCart: (sessionId, base) => shop.shopper.openCart(sessionId, base),
    shippingMethod: (id, currency) => shop.shopper.shippingMethod(id, currency),
    defaultShippingMethod: shop.shopper.defaultShippingMethod,
    loadCheckout: (cartId) => loadCheckout(db, cartId),
  };

  return {
    tokens,
    servicePay,
    tradeIns,
    orders,
    integrationLog,
    inspector,
    shopper,
    writeOrderChange,
    lockOrders,
    async noteTradeInSeen(sessionId, tradeInId) {
      const seenAt = new Date();
      await db.sessionTradeIn.upsert({
        where: { sessionId },
        create: { sessionId, tradeInId, seenAt },
        update: { tradeInId, seenAt },
      });
    },
  };
}
