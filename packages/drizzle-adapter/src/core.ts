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
  type OrderNotification,
  orderTotal,
  type PlacedOrder,
  type ServiceOrderStore,
  type ShopOrder,
  type ShopperSource,
  type StoredNotificationStore,
  type StoredNotificationTx,
  type TokenStore,
  type TradeInRegistration,
  type TradeInRegistrationStore,
  type WaitingNotification,
} from "@service-integration/kit";
import type { IntegrationEntry } from "@service-integration/kit/server";
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
import { z } from "zod";
import type { ShopCallbacks, TokenSealer } from "./callbacks.js";

// The ports on the integration's tables, written once for both dialects: Drizzle's query
// builder reads the same on PostgreSQL and SQLite, and each dialect (./pg/adapter.ts,
// ./sqlite/adapter.ts) supplies what differs: how a transaction runs, how a row is locked, and
// what its driver's unique violation looks like (shop-ports.ts names each lock and key).

/**
 * The query builder root of either dialect (a database or a transaction). Drizzle's PostgreSQL
 * and SQLite builders share these methods but no common type, so the core sees them untyped;
 * every row it reads is mapped to the kit's types below.
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

export interface AdapterOptions<Q> {
  shop: ShopCallbacks<Q>;
  /** The kit's `createTokenSealer(key)`: the token store seals the secrets with it. */
  sealer: TokenSealer;
  /** The token row's id (one per API user). Default "default". */
  tokenId?: string;
}

/** Every port of the kit's shop-ports.ts that belongs to the integration, on its tables. */
export interface DrizzleServiceAdapter {
  tokens: TokenStore;
  servicePay: StoredNotificationStore;
  tradeIns: TradeInRegistrationStore;
  orders: ServiceOrderStore;
  integrationLog: IntegrationLogStore;
  inspector: InspectorSource;
  /** The shop's ShopperSource, its kept checkout details read from the adapter's table. */
  shopper: ShopperSource;
  /** Remembers the trade-in this session's browser saw accepted (the SDK's valuation event):
   *  what TradeInRegistrationStore.tradeInSeen reads. */
  noteTradeInSeen(sessionId: string, tradeInId: string): Promise<void>;
}

/** Follows `cause` (Drizzle wraps the driver's error in a DrizzleQueryError). */
export function driverCode(error: unknown): unknown {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

const LOG_LATEST = 100;
const LOG_PRUNE_EVERY = 200;
const DAY_MS = 24 * 60 * 60 * 1000;

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
  const { shop, sealer } = options;
  const tokenId = options.tokenId ?? "default";
  const statuses = shop.statuses;

  /** The order's columns the kit reads (ShopOrder), selected by name. */
  const orderFields = {
    id: O.id,
    number: O.number,
    cartId: O.cartId,
    sessionId: O.sessionId,
    customerId: O.customerId,
    status: O.status,
    serviceOrderId: O.serviceOrderId,
    paymentMethod: O.paymentMethod,
    currency: O.currency,
    price: O.price,
    tax: O.tax,
    shippingPrice: O.shippingPrice,
    discountTotal: O.discountTotal,
    tradeInDiscount: O.tradeInDiscount,
    total: O.total,
    tradeInStatus: O.tradeInStatus,
    tradeInMessage: O.tradeInMessage,
    valuationState: O.valuationState,
    valuationItemId: O.valuationItemId,
    valuationValue: O.valuationValue,
    valuationCurrency: O.valuationCurrency,
    valuationNote: O.valuationNote,
  };

  const readOrders = (q: Builder, where: SQL, locked = false): Promise<ShopOrder[]> => {
    const select = q.select(orderFields).from(O).where(where);
    return locked ? dialect.locked(select) : select;
  };

  /** Runs `fn` in one transaction; a unique key taken by another writer: ConcurrentWriteError. */
  async function transaction<T = Builder>(fn: (q: Builder) => Promise<T>): Promise<T> {
    try {
      return await dialect.transaction(fn);
    } catch (error) {
      if (dialect.isUniqueViolation(error))
        throw new ConcurrentWriteError("unique key taken", { cause: error });
      throw error;
    }
  }

  async function placedOrder(q: Builder, orderId: string): Promise<PlacedOrder | null> {
    const [order] = await readOrders(q, eq(O.id, orderId));
    if (!order) return null;
    return { ...order, ...(await shop.placedOrder(q as Q, order)) };
  }

  /** The one writer of an order's status: the change and its history line, in `q`. */
  async function writeOrderChange(q: Builder, order: ShopOrder, change: OrderChange) {
    const tradeInDiscount = change.tradeInDiscount ?? order.tradeInDiscount;
    const to = change.to ?? order.status;
    const [updated] = await q
      .update(O)
      .set({
        status: to,
        tradeInDiscount,
        total: orderTotal({ ...order, tradeInDiscount }),
        ...(change.serviceOrderId !== undefined ? { serviceOrderId: change.serviceOrderId } : {}),
        ...(change.tradeInStatus !== undefined ? { tradeInStatus: change.tradeInStatus } : {}),
        ...(change.tradeInMessage !== undefined ? { tradeInMessage: change.tradeInMessage } : {}),
      })
      .where(eq(O.id, order.id))
      .returning(orderFields);
    if (!updated) throw new Error(`no order ${order.id} to change`);
    await q.insert(H).values({
      orderId: order.id,
      from: order.status,
      to,
      source: change.source,
      note: change.note.slice(0, 1000),
    });
    return updated as ShopOrder;
  }

  // -------------------------------------------------------------------------------------------
  // Kept checkouts and notifications

  type CheckoutRow = {
    cartId: string;
    sessionId: string;
    customerId: string | null;
    email: string;
    billing: string;
    shipping: string;
    shippingMethod: string;
    updatedAt: Date;
  } & AcceptedValuation;

  /** The kept details of a row, or null when they no longer read as valid details. */
  function keptCheckout(row: CheckoutRow): KeptCheckout | null {
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

  async function loadCheckout(q: Builder, cartId: string): Promise<KeptCheckout | null> {
    const [row] = await q.select().from(C).where(eq(C.cartId, cartId));
    return row ? keptCheckout(row) : null;
  }

  type NotificationRow = Omit<WaitingNotification, "form"> & { form: string };
  const waiting = (row: NotificationRow): WaitingNotification => ({
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
    customerId: row.customerId,
    form: row.form === "data" ? "data" : "flat",
    body: row.body,
  });
  const notificationValues = (n: OrderNotification) => ({
    dedupeKey: n.dedupeKey,
    notificationId: n.notificationId,
    event: n.event,
    serviceOrderId: n.serviceOrderId,
    cartId: n.cartId,
    status: n.status,
    amount: n.amount,
    currency: n.currency,
    tradeInDiscount: n.tradeInDiscount,
    customerId: n.customerId,
    form: n.form,
    body: n.body,
  });
  const oldestFirst = [asc(N.receivedAt), asc(N.id)];

  function servicePayTx(q: Builder): StoredNotificationTx {
    return {
      openCartId: (sessionId) => shop.openCartId(q as Q, sessionId),

      async findSessionOrder(sessionId, where) {
        const [order] =
          "cartId" in where
            ? await readOrders(
                q,
                and(eq(O.cartId, where.cartId), eq(O.sessionId, sessionId)) as SQL,
              )
            : await q
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
                .limit(1);
        return order ?? null;
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
        await q
          .insert(C)
          .values({ cartId, ...data })
          .onConflictDoUpdate({ target: C.cartId, set: data });
      },

      loadCheckout: (cartId) => loadCheckout(q, cartId),

      async dropCheckout(cartId) {
        await q.delete(C).where(eq(C.cartId, cartId));
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
        const id = await shop.createOrder(q as Q, {
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
        await q.insert(H).values({
          orderId: id,
          from: null,
          to: status,
          source: "shop",
          note: firstNote.slice(0, 1000),
        });
        const [order] = await readOrders(q, eq(O.id, id));
        if (!order) throw new Error(`createOrder answered ${id}, which is no order`);
        return order;
      },

      async claimNotification(n) {
        // Unique key: the dedupe key; the insert's conflict decides, so copies insert once.
        const inserted = await q
          .insert(N)
          .values({
            id: randomUUID(),
            ...notificationValues(n),
            outcome: "early",
            receivedAt: new Date(),
          })
          .onConflictDoNothing({ target: N.dedupeKey })
          .returning({ id: N.id });
        return inserted[0]?.id ?? null;
      },

      async notificationIdTaken(notificationId, dedupeKey) {
        const other = await q
          .select({ id: N.id })
          .from(N)
          .where(and(eq(N.notificationId, notificationId), ne(N.dedupeKey, dedupeKey)))
          .limit(1);
        return other.length > 0;
      },

      async notificationOutcome(dedupeKey) {
        const [row] = await q
          .select({ outcome: N.outcome, orderId: N.orderId })
          .from(N)
          .where(eq(N.dedupeKey, dedupeKey));
        return row ? { outcome: row.outcome as NotificationOutcome, orderId: row.orderId } : null;
      },

      async settleNotification(id, orderId, outcome) {
        const settled = await q
          .update(N)
          .set({ orderId, outcome, appliedAt: new Date() })
          .where(eq(N.id, id))
          .returning({ id: N.id });
        if (settled.length !== 1) throw new Error(`no stored notification ${id} to settle`);
      },

      async waitingNotifications(cartId, serviceOrderId) {
        const of = serviceOrderId
          ? or(eq(N.cartId, cartId), eq(N.serviceOrderId, serviceOrderId))
          : eq(N.cartId, cartId);
        const rows = await q
          .select()
          .from(N)
          .where(and(isNull(N.orderId), of))
          .orderBy(...oldestFirst);
        return rows.map(waiting);
      },

      async hasWaitingNotification(cartId) {
        const rows = await q
          .select({ id: N.id })
          .from(N)
          .where(and(eq(N.cartId, cartId), isNull(N.orderId)))
          .limit(1);
        return rows.length > 0;
      },

      async findOrderFor(serviceOrderId, cartId) {
        // Locked as it is read: the change is planned from this row, so a second transaction
        // waits here until the first commits (shop-ports.ts findOrderFor).
        const keys = [
          ...(serviceOrderId ? [eq(O.serviceOrderId, serviceOrderId)] : []),
          ...(cartId ? [eq(O.cartId, cartId)] : []),
        ];
        if (keys.length === 0) return null;
        const rows = await readOrders(q, or(...keys) as SQL, true);
        return (
          rows.find((r) => serviceOrderId && r.serviceOrderId === serviceOrderId) ?? rows[0] ?? null
        );
      },

      async statusHistory(orderId) {
        const rows = await q
          .select({ to: H.to })
          .from(H)
          .where(eq(H.orderId, orderId))
          .orderBy(desc(H.seq));
        return rows.map((r: { to: string }) => r.to);
      },

      changeOrder: (order, change) => writeOrderChange(q, order, change),

      async claimStored(id) {
        // One conditional UPDATE: the database lets one transaction move the row off "stored".
        const taken = await q
          .update(N)
          .set({ outcome: "early" })
          .where(and(eq(N.id, id), eq(N.outcome, "stored")))
          .returning({ id: N.id });
        return taken.length === 1;
      },

      async storedBefore(id, cartId, serviceOrderId) {
        const of = [
          ...(cartId ? [eq(N.cartId, cartId)] : []),
          ...(serviceOrderId ? [eq(N.serviceOrderId, serviceOrderId)] : []),
        ];
        if (of.length === 0) return [];
        const [self] = await q.select({ receivedAt: N.receivedAt }).from(N).where(eq(N.id, id));
        if (!self) return [];
        const rows = await q
          .select()
          .from(N)
          .where(
            and(
              eq(N.outcome, "stored"),
              ne(N.id, id),
              lt(N.receivedAt, self.receivedAt),
              or(...of),
            ),
          )
          .orderBy(...oldestFirst);
        return rows.map(waiting);
      },
    };
  }

  const servicePay: StoredNotificationStore = {
    transaction: (fn) => transaction((q) => fn(servicePayTx(q))),

    openCartCheckout: (sessionId) =>
      dialect.outside(async (q) => {
        const cartId = await shop.openCartId(q as Q, sessionId);
        if (!cartId) return null;
        const kept = await loadCheckout(q, cartId);
        return kept && kept.sessionId === sessionId ? kept : null;
      }),

    async storeBatch(notifications) {
      // ONE multi-row INSERT … ON CONFLICT DO NOTHING in one transaction: one commit for the
      // batch (contract, Merchant endpoints rule 2). The first copy of a key in the batch wins.
      const ids = new Map<string, string>();
      const at = Date.now();
      const rows: Record<string, unknown>[] = [];
      notifications.forEach((n, i) => {
        if (ids.has(n.dedupeKey)) return;
        const id = randomUUID();
        ids.set(n.dedupeKey, id);
        // Arrival order inside the batch, so oldest-first reads apply them as they came.
        rows.push({
          id,
          ...notificationValues(n),
          outcome: "stored",
          receivedAt: new Date(at + i),
        });
      });
      if (rows.length === 0) return notifications.map(() => null);
      const inserted: { id: string }[] = await transaction((q) =>
        q
          .insert(N)
          .values(rows)
          .onConflictDoNothing({ target: N.dedupeKey })
          .returning({ id: N.id }),
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
      const rows = await dialect.outside((q) =>
        q
          .select()
          .from(N)
          .where(eq(N.outcome, "stored"))
          .orderBy(...oldestFirst)
          .limit(limit),
      );
      return rows.map(waiting);
    },
  };

  // -------------------------------------------------------------------------------------------
  // Tokens and the renewal lease

  type Sealed = "accessToken" | "refreshToken" | "userId";
  // The row id is bound in, so a sealed value opens only in its own row and field.
  const seal = (field: Sealed, plain: string) => sealer.seal(`${tokenId}:${field}`, plain);
  const open = (field: Sealed, value: string) => sealer.open(`${tokenId}:${field}`, value);
  const leaseName = `service-token-renewal:${tokenId}`;

  const tokens: TokenStore = {
    async load() {
      const [row] = await dialect.outside((q) => q.select().from(T).where(eq(T.id, tokenId)));
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
      const data = {
        accessToken: seal("accessToken", t.accessToken),
        refreshToken: seal("refreshToken", t.refreshToken),
        userId: seal("userId", t.userId),
        merchantId: t.merchantId,
        scope: t.scope,
        accessExpiresAt: t.accessExpiresAt,
        updatedAt: new Date(),
      };
      await dialect.outside((q) =>
        q
          .insert(T)
          .values({ id: tokenId, ...data })
          .onConflictDoUpdate({ target: T.id, set: data }),
      );
    },
    async acquireRenewalLease(holder, ttlMs) {
      // One statement: inserted when no one ever held it, else taken only if expired or already
      // ours (the conflict's WHERE). A second writer waits on the row and re-checks (PostgreSQL)
      // or runs after the first (SQLite's one writer), so one holder wins.
      const now = new Date();
      const expiresAt = new Date(now.getTime() + ttlMs);
      const taken = await dialect.outside((q) =>
        q
          .insert(L)
          .values({ name: leaseName, holder, expiresAt })
          .onConflictDoUpdate({
            target: L.name,
            set: { holder, expiresAt },
            setWhere: or(lte(L.expiresAt, now), eq(L.holder, holder)),
          })
          .returning({ name: L.name }),
      );
      return taken.length === 1;
    },
    async releaseRenewalLease(holder) {
      await dialect.outside((q) =>
        q.delete(L).where(and(eq(L.name, leaseName), eq(L.holder, holder))),
      );
    },
  };

  // -------------------------------------------------------------------------------------------
  // register-purchase rows and the retry job

  const registration = (
    row: TradeInRegistration & Record<string, unknown>,
  ): TradeInRegistration => ({
    id: row.id,
    orderId: row.orderId,
    sessionHash: row.sessionHash,
    cart: row.cart,
    orderAmount: row.orderAmount,
    customerId: row.customerId,
    status: row.status,
    precheck: row.precheck,
    attempts: row.attempts,
    unreachable: row.unreachable,
  });

  const tradeIns: TradeInRegistrationStore = {
    order: (orderId) => dialect.outside((q) => placedOrder(q, orderId)),

    async find(orderId) {
      const [row] = await dialect.outside((q) => q.select().from(R).where(eq(R.orderId, orderId)));
      return row ? registration(row) : null;
    },

    async create(row) {
      // Unique key: the order id; the insert's conflict decides, never a read first.
      const inserted = await dialect.outside((q) =>
        q
          .insert(R)
          .values({
            id: randomUUID(),
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
          })
          .onConflictDoNothing({ target: R.orderId })
          .returning({ id: R.id }),
      );
      return inserted.length === 1;
    },

    async claim(row, until) {
      // Compare-and-set on `attempts`: one conditional UPDATE.
      const claimed = await dialect.outside((q) =>
        q
          .update(R)
          .set({ attempts: row.attempts + 1, nextAttemptAt: until, updatedAt: new Date() })
          .where(and(eq(R.id, row.id), eq(R.status, "queued"), eq(R.attempts, row.attempts)))
          .returning({ id: R.id }),
      );
      return claimed.length === 1;
    },

    async finish(row, result, change) {
      await transaction(async (q) => {
        await q
          .update(R)
          .set({ ...result, updatedAt: new Date() })
          .where(eq(R.id, row.id));
        if (!change) return;
        const [order] = await readOrders(q, eq(O.id, row.orderId), true);
        if (!order) throw new Error(`no order ${row.orderId} for registration ${row.id}`);
        if (order.tradeInStatus === change.tradeInStatus) return;
        await writeOrderChange(q, order, { source: "service", ...change });
      });
    },

    async due(now, { limit, all, until }) {
      // One statement leases a batch: rows another runner is leasing right now are skipped, not
      // waited for, on PostgreSQL (FOR UPDATE SKIP LOCKED); SQLite runs one writer at a time.
      // RETURNING gives each row's attempts as this statement saw them.
      const rows: { orderId: string; attempts: number }[] = await transaction((q) => {
        const dueRows = dialect.locked(
          q
            .select({ id: R.id })
            .from(R)
            .where(
              all ? eq(R.status, "queued") : and(eq(R.status, "queued"), lte(R.nextAttemptAt, now)),
            )
            .orderBy(asc(R.nextAttemptAt))
            .limit(limit),
          { skipLocked: true },
        );
        return q
          .update(R)
          .set({ nextAttemptAt: until })
          .where(inArray(R.id, dueRows))
          .returning({ orderId: R.orderId, attempts: R.attempts });
      });
      return rows.map((r) => ({ orderId: r.orderId, attempts: Number(r.attempts) }));
    },

    async tradeInSeen(sessionId) {
      const [row] = await dialect.outside((q) =>
        q.select({ tradeInId: S.tradeInId }).from(S).where(eq(S.sessionId, sessionId)),
      );
      return row?.tradeInId ?? null;
    },

    async unreachableSince(since) {
      // The attempt's own flag (typed, not read out of lastError's text).
      const rows = await dialect.outside((q) =>
        q
          .select({ id: R.id })
          .from(R)
          .where(and(eq(R.status, "queued"), gte(R.updatedAt, since), eq(R.unreachable, true)))
          .limit(1),
      );
      return rows.length > 0;
    },
  };

  // -------------------------------------------------------------------------------------------
  // The back office's orders

  const orders: ServiceOrderStore = {
    order: (orderId) => dialect.outside((q) => placedOrder(q, orderId)),

    async changeOrder(order, change) {
      await transaction(async (q) => {
        // Written against the order as it is now, locked: a notification may have moved it
        // since the caller read it (shop-ports.ts ServiceOrderStore.changeOrder).
        const [current] = await readOrders(q, eq(O.id, order.id), true);
        if (!current) throw new Error(`no order ${order.id} to change`);
        const keep =
          change.to !== undefined &&
          current.status !== order.status &&
          current.status !== change.to &&
          !statuses.canTransition(current.status, change.to);
        await writeOrderChange(q, current, keep ? { ...change, to: undefined } : change);
      });
    },

    async findOrders(serviceOrderIds, cartIds) {
      const keys = [
        ...(serviceOrderIds.length ? [inArray(O.serviceOrderId, serviceOrderIds)] : []),
        ...(cartIds.length ? [inArray(O.cartId, cartIds)] : []),
      ];
      if (keys.length === 0) return [];
      return dialect.outside((q) => readOrders(q, or(...keys) as SQL));
    },

    needsAttention: () =>
      dialect.outside(async (q) => {
        const held: ShopOrder[] = await q
          .select(orderFields)
          .from(O)
          .where(eq(O.status, statuses.held))
          .orderBy(asc(O.createdAt))
          .limit(100);
        const withNotes = [];
        for (const order of held) {
          const [line] = await q
            .select({ note: H.note })
            .from(H)
            .where(and(eq(H.orderId, order.id), eq(H.to, statuses.held)))
            .orderBy(desc(H.seq))
            .limit(1);
          withNotes.push({ ...order, heldBecause: (line?.note as string | undefined) ?? "" });
        }
        const reused: { notificationId: string }[] = await q
          .select({ notificationId: N.notificationId })
          .from(N)
          .where(isNotNull(N.notificationId))
          .groupBy(N.notificationId)
          .having(gt(count(), 1))
          .orderBy(asc(N.notificationId))
          .limit(100);
        return {
          held: withNotes,
          reusedNotificationIds: reused.flatMap((r) =>
            r.notificationId ? [r.notificationId] : [],
          ),
        };
      }),
  };

  // -------------------------------------------------------------------------------------------
  // The inspector's log and webhook entries

  let writes = 0;
  const integrationLog: IntegrationLogStore = {
    async append(key, entry) {
      await dialect.outside((q) =>
        q.insert(G).values({
          key,
          at: new Date(entry.at),
          kind: entry.kind,
          label: entry.label,
          status: entry.status ?? null,
          ok: entry.ok,
          durationMs: entry.durationMs ?? null,
          detail: entry.detail ?? "",
          expected: entry.expected ?? null,
        }),
      );
      writes += 1;
      // A demo and debugging aid: entries older than a day go, every few hundred writes.
      if (writes % LOG_PRUNE_EVERY === 0) {
        const before = new Date(Date.now() - DAY_MS);
        await dialect.outside((q) => q.delete(G).where(lt(G.at, before)));
      }
    },
    async read(key, afterSeq) {
      const rows = await dialect.outside((q) =>
        q
          .select()
          .from(G)
          .where(and(eq(G.key, key), gt(G.seq, afterSeq)))
          .orderBy(desc(G.seq))
          .limit(LOG_LATEST),
      );
      return rows.reverse().map(
        (row: Record<string, unknown> & IntegrationEntry & { at: Date }): IntegrationEntry => ({
          seq: Number(row.seq),
          at: row.at.toISOString(),
          kind: row.kind,
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
    sessionNotifications: (sessionId) =>
      dialect.outside(async (q) => {
        const latest: { id: string; number: string }[] = await q
          .select({ id: O.id, number: O.number })
          .from(O)
          .where(eq(O.sessionId, sessionId))
          .orderBy(desc(O.createdAt))
          .limit(10);
        if (latest.length === 0) return [];
        const numbers = new Map(latest.map((o) => [o.id, o.number]));
        const rows = await q
          .select()
          .from(N)
          .where(
            inArray(
              N.orderId,
              latest.map((o) => o.id),
            ),
          )
          .orderBy(...oldestFirst)
          .limit(50);
        return rows.map(
          (n: NotificationRow & { receivedAt: Date; outcome: string; orderId: string | null }) => ({
            receivedAt: n.receivedAt,
            event: n.event,
            status: n.status,
            outcome: n.outcome,
            orderNumber: numbers.get(n.orderId ?? "") ?? "?",
          }),
        );
      }),
  };

  const shopper: ShopperSource = {
    customer: (id) => shop.shopper.customer(id),
    openCart: (sessionId, base) => shop.shopper.openCart(sessionId, base),
    shippingMethod: (id, currency) => shop.shopper.shippingMethod(id, currency),
    defaultShippingMethod: shop.shopper.defaultShippingMethod,
    loadCheckout: (cartId) => dialect.outside((q) => loadCheckout(q, cartId)),
  };

  return {
    tokens,
    servicePay,
    tradeIns,
    orders,
    integrationLog,
    inspector,
    shopper,
    async noteTradeInSeen(sessionId, tradeInId) {
      const seenAt = new Date();
      await dialect.outside((q) =>
        q
          .insert(S)
          .values({ sessionId, tradeInId, seenAt })
          .onConflictDoUpdate({ target: S.sessionId, set: { tradeInId, seenAt } }),
      );
    },
  };
}
