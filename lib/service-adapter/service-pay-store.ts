import "server-only";
import { randomUUID } from "node:crypto";
import type {
  AcceptedValuation,
  CheckoutDetails,
  KeptCheckout,
  OrderNotification,
  OrderStatusRules,
  ServicePayStore,
  ShopOrder,
  StoredNotificationStore,
  StoredNotificationTx,
  WaitingNotification,
} from "@service-integration/kit";
import { ConcurrentWriteError } from "@service-integration/kit";
import { type Db, isPostgres, type Tx } from "@/lib/db/client";
import { Prisma, type ServiceCheckout, type ServiceNotification } from "@/lib/db/generated/client";
import { serviceCheckoutSchema } from "@/lib/shop/checkout-input";
import {
  canReach,
  canTransition,
  HELD_STATUS,
  isOrderStatus,
  PAID_OR_LATER,
} from "@/lib/shop/order-status";
import {
  CheckoutError,
  createOrderFromCart,
  lockOrders,
  writeOrderChange,
} from "@/lib/shop/orders";
import { isShippingMethodId } from "@/lib/shop/shipping";

// The kit's Service Pay store (shop-ports.ts) on the shop's tables, in plain Prisma: one
// interactive transaction per call of `transaction`, the unique key of ServiceNotification
// deciding duplicates (INSERT … ON CONFLICT DO NOTHING through Prisma's raw tagged template; the
// one statement Prisma's model API cannot express on SQLite).

/** The shop's order statuses, as the kit's webhook and order updates write them. */
export const shopOrderStatuses: OrderStatusRules = {
  // This shop keeps the contract's own three names for the statuses the service reports.
  forServiceStatus: {
    pending: "pending",
    payment_completed: "payment_completed",
    completed: "completed",
  },
  // The partial states mirror the update types (lib/shop/order-status.ts).
  afterUpdate: {
    shipped: "shipped",
    returned: "returned",
    partial_shipment: "partially_shipped",
    partial_return: "partially_returned",
    cart_update: null,
  },
  isKnown: isOrderStatus,
  canReach,
  canTransition,
  isPaidOrLater: (status) => PAID_OR_LATER.has(status),
  held: HELD_STATUS,
};

export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    (error as { code: unknown }).code === "P2002"
  );
}

export function createServicePayStore(db: Db): ServicePayStore {
  return {
    async openCartCheckout(sessionId) {
      // One raw statement, no transaction: asked on every cart page view and cart change. The
      // newest open cart of the session, as openCartId, with a line, and what was kept for it.
      const [row] = await db.$queryRaw<ServiceCheckoutRow[]>`
        SELECT k.* FROM "ServiceCheckout" k
        WHERE k."cartId" = (
            SELECT c."id" FROM "Cart" c
            WHERE c."sessionId" = ${sessionId} AND c."checkedOutAt" IS NULL
            ORDER BY c."createdAt" DESC
            LIMIT 1)
          AND EXISTS (SELECT 1 FROM "CartItem" i WHERE i."cartId" = k."cartId")`;
      return row ? keptCheckout(row) : null;
    },

    async transaction(fn) {
      try {
        return await db.$transaction((tx) => fn(servicePayTx(tx, isPostgres(db))));
      } catch (error) {
        if (isUniqueViolation(error))
          throw new ConcurrentWriteError("unique key taken", { cause: error });
        throw error;
      }
    },
  };
}

/**
 * The webhook's store-then-apply store (packages/kit/src/notification-inbox.ts). A batch is ONE
 * multi-row `INSERT … ON CONFLICT ("dedupeKey") DO NOTHING RETURNING "id"` inside an interactive
 * transaction: one commit, one fsync on SQLite for the whole batch. Inside a transaction on
 * purpose: the SQLite adapter serialises its transactions with a mutex but runs a statement
 * outside one on the same connection, so a lone statement sent while an apply is open would
 * commit (or roll back) with that apply.
 */
export function createStoredNotificationStore(db: Db): StoredNotificationStore {
  const store = createServicePayStore(db);
  return {
    openCartCheckout: store.openCartCheckout,
    transaction: (fn) =>
      store.transaction((tx) => fn(tx as StoredNotificationTx)) as ReturnType<typeof fn>,
    async storeBatch(notifications) {
      // The first of several copies in one batch is inserted; the others are duplicates.
      const ids = new Map<string, string>();
      const rows: Prisma.Sql[] = [];
      const at = Date.now();
      notifications.forEach((n, i) => {
        if (ids.has(n.dedupeKey)) return;
        const id = randomUUID();
        ids.set(n.dedupeKey, id);
        // Arrival order inside the batch, so oldest-first reads apply them as they came.
        rows.push(Prisma.sql`(${id}, ${n.dedupeKey}, ${n.notificationId}, ${n.event},
          ${n.serviceOrderId}, ${n.cartId}, ${n.status}, ${n.amount}, ${n.currency},
          ${n.tradeInDiscount}, ${n.form}, ${n.body}, 'stored', ${new Date(at + i)})`);
      });
      const inserted = await db.$transaction(
        (tx) => tx.$queryRaw<{ id: string }[]>`
          INSERT INTO "ServiceNotification" ("id", "dedupeKey", "notificationId", "event",
            "serviceOrderId", "cartId", "status", "amount", "currency", "tradeInDiscount", "form",
            "body", "outcome", "receivedAt")
          VALUES ${Prisma.join(rows)}
          ON CONFLICT ("dedupeKey") DO NOTHING
          RETURNING "id"`,
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
        orderBy: [{ receivedAt: "asc" }, { id: "asc" }],
        take: limit,
      });
      return rows.map(waitingFromRow);
    },
  };
}

/** A stored notification's row (its columns as the webhook stored them, not how it ended). */
function waitingFromRow(
  row: Omit<ServiceNotification, "outcome" | "orderId" | "receivedAt" | "appliedAt">,
): WaitingNotification {
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
    customerId: null,
    form: row.form === "data" ? "data" : "flat",
    body: row.body,
  };
}

/** The valuation's own columns, from any row or object that carries them. */
function valuationColumns(v: AcceptedValuation): AcceptedValuation {
  return {
    valuationState: v.valuationState,
    valuationItemId: v.valuationItemId,
    valuationValue: v.valuationValue,
    valuationCurrency: v.valuationCurrency,
    valuationNote: v.valuationNote,
  };
}

type ServiceCheckoutRow = Omit<ServiceCheckout, "updatedAt" | "createdAt"> & {
  /** a Date from a model query; what the driver gives for a raw one */
  updatedAt: Date | string | number;
};

/** The kept details of a `ServiceCheckout` row, or null when they no longer read as valid. */
function keptCheckout(row: ServiceCheckoutRow): KeptCheckout | null {
  let parsed: ReturnType<typeof serviceCheckoutSchema.safeParse>;
  try {
    parsed = serviceCheckoutSchema.safeParse({
      email: row.email,
      billing: JSON.parse(row.billing),
      shipping: JSON.parse(row.shipping),
      shipping_method: row.shippingMethod,
    });
  } catch {
    return null;
  }
  if (!parsed.success) return null;
  return {
    cartId: row.cartId,
    sessionId: row.sessionId,
    customerId: row.customerId,
    details: parsed.data satisfies CheckoutDetails,
    keptAt: row.updatedAt instanceof Date ? row.updatedAt : new Date(row.updatedAt),
    ...valuationColumns(row),
  };
}

/** The order's first history line says what the payment start found of the trade-in. */
function valuationNoteOnCreation(note: string, v: AcceptedValuation): string {
  const found = v.valuationState
    ? `accepted valuation ${v.valuationState} (${v.valuationNote ?? ""})`
    : "no accepted valuation was looked up at payment start";
  return `${note}; ${found}`;
}

function servicePayTx(tx: Tx, postgres: boolean): StoredNotificationTx {
  return {
    // The apply path's narrow statements are raw SQL (the same text on SQLite and PostgreSQL):
    // a model query is compiled on every call by Prisma's WebAssembly query compiler, about
    // 0.8 ms of CPU here against about 0.1 ms for a raw one, and an apply makes several
    // (bench:webhook; docs/decisions/webhook-storage.md).
    async claimStored(id) {
      // One conditional UPDATE: the database lets one transaction move the row off "stored"
      // (PostgreSQL: a second UPDATE waits for the first and re-checks the condition).
      const taken = await tx.$executeRaw`
        UPDATE "ServiceNotification" SET "outcome" = 'early'
        WHERE "id" = ${id} AND "outcome" = 'stored'`;
      return taken === 1;
    },

    async storedBefore(id, cartId, serviceOrderId) {
      const of = [
        ...(cartId ? [Prisma.sql`o."cartId" = ${cartId}`] : []),
        ...(serviceOrderId ? [Prisma.sql`o."serviceOrderId" = ${serviceOrderId}`] : []),
      ];
      if (of.length === 0) return [];
      // Usually there is none: one look-up on the cart's and the order's indexes decides
      // before any row is read. COALESCE keeps the planner off the "outcome" index, which
      // would walk every stored row (thousands while a burst is applied).
      const older = await tx.$queryRaw<{ id: string }[]>`
        SELECT o."id" FROM "ServiceNotification" o, "ServiceNotification" r
        WHERE r."id" = ${id} AND COALESCE(o."outcome", '') = 'stored' AND o."id" <> r."id"
          AND o."receivedAt" < r."receivedAt" AND (${Prisma.join(of, " OR ")})`;
      if (older.length === 0) return [];
      const rows = await tx.serviceNotification.findMany({
        where: { id: { in: older.map((o) => o.id) } },
        orderBy: [{ receivedAt: "asc" }, { id: "asc" }],
      });
      return rows.map(waitingFromRow);
    },

    async openCartId(sessionId) {
      // The newest open cart, if it has lines: one raw statement, asked by every cart page view
      // (servicePaymentOpen) where the whole cart was read again.
      const [cart] = await tx.$queryRaw<{ id: string; lines: number | bigint }[]>`
        SELECT c."id" AS "id",
          CAST((SELECT COUNT(*) FROM "CartItem" i WHERE i."cartId" = c."id") AS INTEGER) AS "lines"
        FROM "Cart" c
        WHERE c."sessionId" = ${sessionId} AND c."checkedOutAt" IS NULL
        ORDER BY c."createdAt" DESC
        LIMIT 1`;
      return cart && Number(cart.lines) > 0 ? cart.id : null;
    },

    findSessionOrder(sessionId, where) {
      return "cartId" in where
        ? tx.order.findFirst({ where: { cartId: where.cartId, sessionId } })
        : tx.order.findFirst({
            where: { sessionId, paymentMethod: "service_pay", createdAt: { gte: where.since } },
            orderBy: { createdAt: "desc" },
          });
    },

    async saveCheckout({ cartId, sessionId, customerId, details, valuation }) {
      const data = {
        sessionId,
        customerId,
        email: details.email,
        billing: JSON.stringify(details.billing),
        shipping: JSON.stringify(details.shipping),
        shippingMethod: details.shippingMethod,
        ...(valuation ? valuationColumns(valuation) : {}),
      };
      await tx.serviceCheckout.upsert({
        where: { cartId },
        create: { cartId, ...data },
        update: data,
      });
    },

    async loadCheckout(cartId) {
      const row = await tx.serviceCheckout.findUnique({ where: { cartId } });
      return row ? keptCheckout(row) : null;
    },

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
      const { shippingMethod } = details;
      if (!isShippingMethodId(shippingMethod)) return null;
      // The kit writes only statuses it got from this shop's rules (orderStatusRules).
      if (!isOrderStatus(status)) throw new Error(`not a status of this shop: ${status}`);
      try {
        return await createOrderFromCart(tx, {
          sessionId,
          customerId,
          input: { ...details, shippingMethod, paymentMethod: "service_pay" },
          shopBaseUrl,
          status,
          valuation: valuationColumns(valuation),
          note: valuationNoteOnCreation(note, valuation),
        });
      } catch (error) {
        if (error instanceof CheckoutError) return null;
        throw error;
      }
    },

    async claimNotification(n: OrderNotification) {
      const id = randomUUID();
      const inserted = await tx.$executeRaw`
        INSERT INTO "ServiceNotification" ("id", "dedupeKey", "notificationId", "event",
          "serviceOrderId", "cartId", "status", "amount", "currency", "tradeInDiscount", "form",
          "body", "outcome", "receivedAt")
        VALUES (${id}, ${n.dedupeKey}, ${n.notificationId}, ${n.event}, ${n.serviceOrderId},
          ${n.cartId}, ${n.status}, ${n.amount}, ${n.currency}, ${n.tradeInDiscount}, ${n.form},
          ${n.body}, 'early', ${new Date()})
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
      const row = await tx.serviceNotification.findUnique({
        where: { dedupeKey },
        select: { outcome: true, orderId: true },
      });
      return row ? { outcome: row.outcome as never, orderId: row.orderId } : null;
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
        orderBy: [{ receivedAt: "asc" }, { id: "asc" }],
      });
      return rows.map(waitingFromRow);
    },

    async hasWaitingNotification(cartId) {
      const row = await tx.serviceNotification.findFirst({
        where: { cartId, orderId: null },
        select: { id: true },
      });
      return row !== null;
    },

    async findOrderFor(serviceOrderId, cartId) {
      // Locked before it is read: the notification's change is planned from this row
      // (shop-ports.ts, findOrderFor).
      await lockOrders(tx, postgres, { serviceOrderId, cartId });
      const rows = await tx.order.findMany({
        where: {
          OR: [...(serviceOrderId ? [{ serviceOrderId }] : []), ...(cartId ? [{ cartId }] : [])],
        },
        take: 2,
      });
      return (
        rows.find((r) => serviceOrderId && r.serviceOrderId === serviceOrderId) ?? rows[0] ?? null
      );
    },

    async statusHistory(orderId) {
      const rows = await tx.orderStatusChange.findMany({
        where: { orderId },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        select: { to: true },
      });
      return rows.map((r) => r.to);
    },

    changeOrder(order: ShopOrder, change) {
      return writeOrderChange(tx, order, change);
    },
  };
}
