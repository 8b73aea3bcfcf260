import { z } from "zod";
import { addressSchema, orderTotal } from "./cart.js";
import type {
  CheckoutRow,
  NewNotificationRow,
  NotificationRow,
  OrderKeys,
  RegistrationRow,
  ServiceRowStore,
} from "./service-rows.js";
import type { ShopCallbacks, TokenSealer } from "./shop-callbacks.js";
import {
  type AcceptedValuation,
  ConcurrentWriteError,
  type InspectorSource,
  type IntegrationEntry,
  type IntegrationLogStore,
  type KeptCheckout,
  type NotificationOutcome,
  type OrderChange,
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
} from "./shop-ports.js";
import type { OrderNotification } from "./webhook-payload.js";

// Every port of shop-ports.ts that belongs to the integration, written once over an adapter's
// row-level store (service-rows.ts): the order of the steps inside each transaction, the
// claims, the leases, the idempotency and the pruning are decided here, so an adapter package
// (Drizzle, Prisma, …) is its rows and its database's locks only.

/** createServiceAdapter's options, and every adapter package's (beside its database). */
export interface ServiceAdapterOptions<Q> {
  /** The shop's callbacks: its status names, carts and order rows, run on the adapter's handle
   *  `Q` (inside a transaction, the transaction). */
  shop: ShopCallbacks<Q>;
  /** The kit's `createTokenSealer(key)`: the token store seals the secrets with it. */
  sealer: TokenSealer;
  /** The token row's id (one per API user). Default "default". */
  tokenId?: string;
}

/** Every port of shop-ports.ts that belongs to the integration, on an adapter's tables. */
export interface ServiceAdapter<Q = unknown> {
  /** The service's OAuth tokens and their renewal lease (the token manager's store). */
  tokens: TokenStore;
  /** Service Pay: kept checkouts, pending orders, order notifications stored then applied. */
  servicePay: StoredNotificationStore;
  /** The card orders' register-purchase rows and their retry job's lease. */
  tradeIns: TradeInRegistrationStore;
  /** The back office's order changes the service is told about (orders/update). */
  orders: ServiceOrderStore;
  /** The integration inspector's log, kept where every instance reads it. */
  integrationLog: IntegrationLogStore;
  /** The inspector drawer's webhook entries. */
  inspector: InspectorSource;
  /** The shop's ShopperSource, its kept checkout details read from the adapter's table. */
  shopper: ShopperSource;
  /** Remembers the trade-in this session's browser saw accepted (the SDK's valuation event):
   *  what TradeInRegistrationStore.tradeInSeen reads. */
  noteTradeInSeen(sessionId: string, tradeInId: string): Promise<void>;
  /**
   * The one writer of an order's status and history: the change and its history line, in the
   * caller's transaction `q` (the adapter's handle). The shop's own changes (back office, card
   * checkout) go through it, so the history is written in one place.
   */
  writeOrderChange(q: Q, order: ShopOrder, change: OrderChange): Promise<ShopOrder>;
  /** A new order's first history line (`from` null), in the caller's transaction `q`. */
  recordNewOrder(
    q: Q,
    order: { id: string; status: string },
    source: OrderChange["source"],
    note: string,
  ): Promise<void>;
  /** Locks the orders matching any of `keys` until `q` ends and reads them (the adapter's
   *  lock: PostgreSQL FOR UPDATE, SQLite's write lock). */
  lockOrders(q: Q, keys: OrderKeys): Promise<ShopOrder[]>;
}

const LOG_LATEST = 100;
const LOG_PRUNE_EVERY = 200;
const DAY_MS = 24 * 60 * 60 * 1000;
const NOTE_MAX = 1000;

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
    asked:
      row.askedAmount !== null && row.askedCurrency !== null
        ? { amount: row.askedAmount, currency: row.askedCurrency }
        : null,
  };
}

/** A stored notification (its columns as the webhook stored them, not how it ended). */
function waiting(row: NotificationRow): WaitingNotification {
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
    // Not a column of every adapter: the customer is the order's (the apply reads it there).
    customerId: row.customerId ?? null,
    form: row.form === "data" ? "data" : "flat",
    body: row.body,
  };
}

function registration(row: RegistrationRow): TradeInRegistration {
  return {
    id: row.id,
    orderId: row.orderId,
    sessionHash: row.sessionHash,
    cart: row.cart,
    orderAmount: Number(row.orderAmount),
    customerId: row.customerId,
    status: row.status,
    precheck: Boolean(row.precheck),
    attempts: Number(row.attempts),
    unreachable: Boolean(row.unreachable),
  };
}

type SealedField = "accessToken" | "refreshToken" | "userId";

/**
 * The token row's values, the secrets sealed: the row id and field are bound in, so a sealed
 * value opens only in its own row and field. What the token store saves; also for seeding a row
 * directly (a benchmark's database, before the server starts).
 */
export function sealedTokenRow(sealer: TokenSealer, tokenId: string, tokens: StoredTokens) {
  const seal = (field: SealedField) => sealer.seal(`${tokenId}:${field}`, tokens[field]);
  return {
    /** StoredTokens.accessToken, sealed. */
    accessToken: seal("accessToken"),
    /** StoredTokens.refreshToken, sealed. */
    refreshToken: seal("refreshToken"),
    /** StoredTokens.userId, sealed (half of the webhook secret). */
    userId: seal("userId"),
    /** StoredTokens.merchantId, as it is (the SDK's public merchantId). */
    merchantId: tokens.merchantId,
    /** StoredTokens.scope, as it is. */
    scope: tokens.scope,
    /** StoredTokens.accessExpiresAt. */
    accessExpiresAt: tokens.accessExpiresAt,
  };
}

/** The last arrival time this process gave a stored notification (ms since the epoch). */
let lastArrival = 0;

/**
 * Arrival times for a batch of `count` notifications: from now, one millisecond apart, and
 * always after every earlier batch of this process. The apply reads an order's notifications
 * oldest first by arrival time, so two batches stored within one millisecond must not share one:
 * the later one's apply would not see the earlier as older and skip its status. Across
 * instances, deliveries within the same millisecond came at the same time as far as anyone knows.
 */
function arrivalTimes(count: number): number {
  const first = Math.max(Date.now(), lastArrival + 1);
  lastArrival = first + Math.max(count, 1) - 1;
  return first;
}

const newNotification = (
  n: OrderNotification,
  outcome: "stored" | "early",
  receivedAt: Date,
): NewNotificationRow => ({ ...n, id: crypto.randomUUID(), outcome, receivedAt });

/** Every integration port over the adapter's row store `store`. */
export function createServiceAdapter<Q>(
  store: ServiceRowStore<Q>,
  options: ServiceAdapterOptions<Q>,
): ServiceAdapter<Q> {
  const { shop, sealer } = options;
  const tokenId = options.tokenId ?? "default";
  const statuses = shop.statuses;
  const outside = store.outside.bind(store);

  /** Runs `fn` in one transaction; a unique key taken by another writer: ConcurrentWriteError. */
  async function transaction<T>(fn: (q: Q) => PromiseLike<T>): Promise<T> {
    try {
      return await store.transaction(fn);
    } catch (error) {
      if (store.isUniqueViolation(error))
        throw new ConcurrentWriteError("unique key taken", { cause: error });
      throw error;
    }
  }

  async function placedOrder(q: Q, orderId: string): Promise<PlacedOrder | null> {
    const order = await store.order(q, orderId);
    if (!order) return null;
    return { ...order, ...(await shop.placedOrder(q, order)) };
  }

  /** The one writer of an order's status: the change and its history line, in `q`. */
  async function writeOrderChange(q: Q, order: ShopOrder, change: OrderChange) {
    const tradeInDiscount = change.tradeInDiscount ?? order.tradeInDiscount;
    const to = change.to ?? order.status;
    const updated = await store.updateOrder(q, order.id, {
      status: to,
      tradeInDiscount,
      total: orderTotal({ ...order, tradeInDiscount }),
      ...(change.serviceOrderId !== undefined ? { serviceOrderId: change.serviceOrderId } : {}),
      ...(change.tradeInStatus !== undefined ? { tradeInStatus: change.tradeInStatus } : {}),
      ...(change.tradeInMessage !== undefined ? { tradeInMessage: change.tradeInMessage } : {}),
    });
    if (!updated) throw new Error(`no order ${order.id} to change`);
    await store.insertHistory(q, {
      orderId: order.id,
      from: order.status,
      to,
      source: change.source,
      note: change.note.slice(0, NOTE_MAX),
    });
    return updated;
  }

  async function recordNewOrder(
    q: Q,
    order: { id: string; status: string },
    source: OrderChange["source"],
    note: string,
  ) {
    await store.insertHistory(q, {
      orderId: order.id,
      from: null,
      to: order.status,
      source,
      note: note.slice(0, NOTE_MAX),
    });
  }

  async function loadCheckout(q: Q, cartId: string): Promise<KeptCheckout | null> {
    const row = await store.checkout(q, cartId);
    return row ? keptCheckout(row) : null;
  }

  // -------------------------------------------------------------------------------------------
  // Kept checkouts and notifications

  function servicePayTx(q: Q): StoredNotificationTx {
    return {
      openCartId: (sessionId) => shop.openCartId(q, sessionId),
      findSessionOrder: async (sessionId, where) => store.sessionOrder(q, sessionId, where),

      async saveCheckout({ cartId, sessionId, customerId, details, valuation }) {
        // Unique key: the cart id (an upsert by it), so one cart keeps one set of details.
        await store.saveCheckout(q, {
          cartId,
          sessionId,
          customerId,
          email: details.email,
          billing: JSON.stringify(details.billing),
          shipping: JSON.stringify(details.shipping),
          shippingMethod: details.shippingMethod,
          updatedAt: new Date(),
          // A valuation is given at payment start only: a new payment, so what purchase_data
          // answered for an earlier one no longer counts (pending-order.ts).
          ...(valuation
            ? { ...valuationOf(valuation), askedAmount: null, askedCurrency: null }
            : {}),
        });
      },

      loadCheckout: (cartId) => loadCheckout(q, cartId),
      dropCheckout: async (cartId) => {
        await store.deleteCheckout(q, cartId);
      },

      async createPendingOrder(params) {
        const { status, sessionId, customerId, details, shopBaseUrl, note } = params;
        const v = valuationOf(params.valuation);
        const found = v.valuationState
          ? `accepted valuation ${v.valuationState} (${v.valuationNote ?? ""})`
          : "no accepted valuation was looked up at payment start";
        const firstNote = `${note}; ${found}`;
        const id = await shop.createOrder(q, {
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
        await recordNewOrder(q, { id, status }, "shop", firstNote);
        const order = await store.order(q, id);
        if (!order) throw new Error(`createOrder answered ${id}, which is no order`);
        return order;
      },

      async claimNotification(n) {
        // Unique key: the dedupe key; the insert's conflict decides, so copies insert once.
        const [id] = await store.insertNotifications(q, [newNotification(n, "early", new Date())]);
        return id ?? null;
      },

      notificationIdTaken: async (notificationId, dedupeKey) =>
        store.notificationIdElsewhere(q, notificationId, dedupeKey),

      async notificationOutcome(dedupeKey) {
        const row = await store.notification(q, { dedupeKey });
        return row ? { outcome: row.outcome as NotificationOutcome, orderId: row.orderId } : null;
      },

      async settleNotification(id, orderId, outcome) {
        const settled = await store.settleNotification(q, id, {
          orderId,
          outcome,
          appliedAt: new Date(),
        });
        if (settled !== 1) throw new Error(`no stored notification ${id} to settle`);
      },

      async waitingNotifications(cartId, serviceOrderId) {
        return (await store.unsettledNotifications(q, cartId, serviceOrderId)).map(waiting);
      },

      async hasWaitingNotification(cartId) {
        return (await store.unsettledNotifications(q, cartId, null, 1)).length > 0;
      },

      async findOrderFor(serviceOrderId, cartId) {
        // Locked as it is read: the change is planned from this row, so a second transaction
        // waits here until the first commits (shop-ports.ts findOrderFor).
        if (!serviceOrderId && !cartId) return null;
        const rows = await store.lockedOrders(q, { serviceOrderId, cartId });
        return (
          rows.find((r) => serviceOrderId && r.serviceOrderId === serviceOrderId) ?? rows[0] ?? null
        );
      },

      async statusHistory(orderId) {
        return (await store.history(q, orderId, {})).map((line) => line.to);
      },

      changeOrder: (order, change) => writeOrderChange(q, order, change),

      async abandonedOrders(status, before, limit) {
        const found: ShopOrder[] = [];
        for (const row of await store.abandonedOrders(q, { status, before }, limit)) {
          // Locked, then checked again: a notification applied meanwhile keeps it, and one
          // applied later waits on this lock and then finds no order.
          const [order] = await store.lockedOrders(q, { id: row.id });
          if (!order || order.status !== status || order.serviceOrderId || order.customerId) {
            continue;
          }
          // Any notification tied to it, or stored for its cart and not applied yet, keeps it.
          if ((await store.notificationsOfOrders(q, [order.id], 1)).length > 0) continue;
          if ((await store.unsettledNotifications(q, order.cartId, null, 1)).length > 0) continue;
          found.push(order);
        }
        return found;
      },

      async dropOrder(order) {
        await store.deleteHistory(q, order.id);
        await store.deleteCheckout(q, order.cartId);
        await shop.dropOrder(q, order);
      },

      // One conditional UPDATE: the database lets one transaction move the row off "stored".
      claimStored: async (id) => store.claimStoredNotification(q, id),

      async storedBefore(id, cartId, serviceOrderId) {
        if (!cartId && !serviceOrderId) return [];
        const before = { id, cartId, serviceOrderId };
        return (await store.storedNotifications(q, { before })).map(waiting);
      },
    };
  }

  const servicePay: StoredNotificationStore = {
    transaction: (fn) => transaction((q) => fn(servicePayTx(q))),

    // Asked on every cart page view: two reads, no transaction (nothing is written).
    openCartCheckout: (sessionId) =>
      outside(async (q) => {
        const cartId = await shop.openCartId(q, sessionId);
        if (!cartId) return null;
        const kept = await loadCheckout(q, cartId);
        return kept && kept.sessionId === sessionId ? kept : null;
      }),

    async storeBatch(notifications) {
      // ONE multi-row INSERT … ON CONFLICT DO NOTHING in one transaction: one commit for the
      // batch (contract, Merchant endpoints rule 2). The first copy of a key in the batch wins.
      const ids = new Map<string, string>();
      const at = arrivalTimes(notifications.length);
      const rows: NewNotificationRow[] = [];
      notifications.forEach((n, i) => {
        if (ids.has(n.dedupeKey)) return;
        // Arrival order inside the batch, so oldest-first reads apply them as they came.
        const row = newNotification(n, "stored", new Date(at + i));
        ids.set(n.dedupeKey, row.id);
        rows.push(row);
      });
      if (rows.length === 0) return notifications.map(() => null);
      const fresh = new Set(await transaction((q) => store.insertNotifications(q, rows)));
      const seen = new Set<string>();
      return notifications.map((n) => {
        const id = ids.get(n.dedupeKey) as string;
        if (seen.has(id) || !fresh.has(id)) return null;
        seen.add(id);
        return id;
      });
    },

    async unapplied(limit) {
      return (await outside((q) => store.storedNotifications(q, { limit }))).map(waiting);
    },
  };

  // -------------------------------------------------------------------------------------------
  // Tokens and the renewal lease

  const open = (field: SealedField, value: string) => sealer.open(`${tokenId}:${field}`, value);
  const leaseName = `service-token-renewal:${tokenId}`;

  const tokens: TokenStore = {
    async load() {
      const row = await outside((q) => store.token(q, tokenId));
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
      const row = { id: tokenId, ...sealedTokenRow(sealer, tokenId, t), updatedAt: new Date() };
      // Upsert: the first login creates the row, every refresh replaces it in one statement.
      await outside((q) => store.saveToken(q, row));
    },
    async acquireRenewalLease(holder, ttlMs) {
      // One conditional UPDATE (expired or already ours): atomic on SQLite (one writer) and on
      // PostgreSQL (a second UPDATE of the row waits and re-checks the condition). The first
      // take of a name is an INSERT whose primary key lets one instance win.
      const now = new Date();
      const expiresAt = new Date(now.getTime() + ttlMs);
      return outside(
        async (q) =>
          (await store.renewLease(q, leaseName, holder, expiresAt, now)) ||
          (await store.insertLease(q, leaseName, holder, expiresAt)),
      );
    },
    async releaseRenewalLease(holder) {
      await outside((q) => store.deleteLease(q, leaseName, holder));
    },
  };

  // -------------------------------------------------------------------------------------------
  // register-purchase rows and the retry job

  const tradeIns: TradeInRegistrationStore = {
    order: (orderId) => outside((q) => placedOrder(q, orderId)),

    async find(orderId) {
      const row = await outside((q) => store.registration(q, orderId));
      return row ? registration(row) : null;
    },

    // Unique key: the order id; the insert's conflict decides, never a read first. Every field
    // as given (shop-ports.ts create): no database default relied on.
    create: (row) =>
      outside((q) => store.insertRegistration(q, { id: crypto.randomUUID(), ...row })),

    // Compare-and-set on `attempts`: one conditional UPDATE.
    claim: (row, until) =>
      outside((q) => store.claimRegistration(q, row.id, row.attempts, until, new Date())),

    async finish(row, result, change) {
      await transaction(async (q) => {
        await store.updateRegistration(q, row.id, { ...result, updatedAt: new Date() });
        if (!change) return;
        const [order] = await store.lockedOrders(q, { id: row.orderId });
        if (!order) throw new Error(`no order ${row.orderId} for registration ${row.id}`);
        if (order.tradeInStatus === change.tradeInStatus) return;
        await writeOrderChange(q, order, { source: "service", ...change });
      });
    },

    async due(now, options) {
      const rows = await store.leaseDueRegistrations(now, options);
      return rows.map((r) => ({ orderId: r.orderId, attempts: Number(r.attempts) }));
    },

    tradeInSeen: (sessionId) => outside((q) => store.seenTradeIn(q, sessionId)),

    carryTradeInSeen: (from, to) =>
      transaction(async (q) => {
        const seen = await store.seenTradeIn(q, from);
        if (seen !== null) await store.saveSeenTradeIn(q, to, seen, new Date());
      }),

    // The attempt's own flag (typed, not read out of lastError's text).
    unreachableSince: (since) => outside((q) => store.unreachableRegistrationSince(q, since)),
  };

  // -------------------------------------------------------------------------------------------
  // The back office's orders

  const orders: ServiceOrderStore = {
    order: (orderId) => outside((q) => placedOrder(q, orderId)),

    async changeOrder(order, change) {
      await transaction(async (q) => {
        // Written against the order as it is now, locked: a notification may have moved it
        // since the caller read it (shop-ports.ts ServiceOrderStore.changeOrder).
        const [current] = await store.lockedOrders(q, { id: order.id });
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
      if (serviceOrderIds.length === 0 && cartIds.length === 0) return [];
      return outside((q) => store.ordersByKeys(q, serviceOrderIds, cartIds));
    },

    needsAttention: () =>
      outside(async (q) => {
        const held = await store.ordersInStatus(q, statuses.held, 100);
        const withNotes = [];
        for (const order of held) {
          const [line] = await store.history(q, order.id, { to: statuses.held, limit: 1 });
          withNotes.push({ ...order, heldBecause: line?.note ?? "" });
        }
        return {
          held: withNotes,
          reusedNotificationIds: await store.reusedNotificationIds(q, 100),
        };
      }),
  };

  // -------------------------------------------------------------------------------------------
  // The inspector's log and webhook entries

  let writes = 0;
  const integrationLog: IntegrationLogStore = {
    async append(key, entry) {
      await outside((q) =>
        store.insertLog(q, {
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
        await outside((q) => store.deleteLogBefore(q, before));
      }
    },
    async read(key, afterSeq) {
      const rows = await outside((q) => store.readLog(q, key, afterSeq, LOG_LATEST));
      return rows.reverse().map(
        (row): IntegrationEntry => ({
          seq: Number(row.seq),
          at: row.at.toISOString(),
          kind: row.kind as IntegrationEntry["kind"],
          label: row.label,
          ok: Boolean(row.ok),
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
      outside(async (q) => {
        const latest = await store.latestSessionOrders(q, sessionId, 10);
        if (latest.length === 0) return [];
        const numbers = new Map(latest.map((o) => [o.id, o.number]));
        const rows = await store.notificationsOfOrders(
          q,
          latest.map((o) => o.id),
          50,
        );
        return rows.map((n) => ({
          receivedAt: n.receivedAt,
          event: n.event,
          status: n.status,
          outcome: n.outcome,
          orderNumber: numbers.get(n.orderId ?? "") ?? "?",
        }));
      }),
  };

  const shopper: ShopperSource = {
    customer: (id) => shop.shopper.customer(id),
    openCart: (sessionId, base) => shop.shopper.openCart(sessionId, base),
    shippingMethod: (id, currency) => shop.shopper.shippingMethod(id, currency),
    defaultShippingMethod: shop.shopper.defaultShippingMethod,
    loadCheckout: (cartId) => outside((q) => loadCheckout(q, cartId)),
    noteAskedToCollect: async ({ cartId, sessionId, keptAt }, asked) => {
      await outside((q) =>
        store.saveCheckoutAsked(
          q,
          { cartId, sessionId, updatedAt: keptAt },
          { askedAmount: asked.amount, askedCurrency: asked.currency },
        ),
      );
    },
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
    recordNewOrder,
    lockOrders: async (q, keys) => store.lockedOrders(q, keys),
    async noteTradeInSeen(sessionId, tradeInId) {
      await outside((q) => store.saveSeenTradeIn(q, sessionId, tradeInId, new Date()));
    },
  };
}
