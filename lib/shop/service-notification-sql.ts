import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import { sumCents } from "./money";
import { isOrderStatus, type OrderStatus } from "./order-status";
import { decideServiceStatus } from "./service-status";

// The order webhook's storage, in synchronous SQL on the connection Prisma itself uses
// (lib/db/sqlite-wal.ts, `sqliteConnection`). Why not Prisma model queries: each costs about
// 0.7 ms of CPU in Prisma 6's JS engine, a raw one through Prisma about 0.2 ms, a prepared
// better-sqlite3 statement a few microseconds; `npm run bench:webhook` holds the webhook route to
// 80 % of an empty route's throughput (README, Service integration). Why it is safe: the code
// is synchronous, so nothing else runs on the connection between its statements; it opens a
// transaction of its own only when none is open (`receiveNotification`), and inside one of
// Prisma's interactive transactions (`applyWaitingNotifications`, at order creation) it joins it.

/** The stored fields of a notification (model ServiceNotification). */
export interface NotificationRow {
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
}

/** The order fields a notification reads. */
export interface OrderRow {
  id: string;
  number: string;
  cartId: string;
  status: string;
  serviceOrderId: string | null;
  price: number;
  tax: number;
  shippingPrice: number;
  tradeInDiscount: number;
}

export type NotificationOutcome = "early" | "applied" | "recorded" | "conflict" | "duplicate";

export interface NotificationPlan {
  outcome: "applied" | "recorded" | "conflict";
  status: string | null;
  serviceOrderId: string | null;
  tradeInDiscount: number | null;
  historyNote: string;
}

/** Pure: what a notification does to an order (contract, Events › Webhook: retries and
 *  out-of-order deliveries; service-status.ts decides the status). */
export function planNotification(
  order: OrderRow,
  lastKnown: OrderStatus,
  note: Pick<
    NotificationRow,
    "notificationId" | "dedupeKey" | "event" | "serviceOrderId" | "status" | "tradeInDiscount"
  >,
): NotificationPlan {
  const historyNote = `Service notification ${note.notificationId ?? note.dedupeKey}${note.event ? ` (${note.event})` : ""}`;
  if (note.serviceOrderId && order.serviceOrderId && note.serviceOrderId !== order.serviceOrderId) {
    // The cart's order is already tied to another service order: keep the notification for a
    // person to look at rather than guess which one is right.
    const none = { status: null, serviceOrderId: null, tradeInDiscount: null };
    return { outcome: "conflict", ...none, historyNote };
  }
  const decision = decideServiceStatus(order.status, lastKnown, note.status);
  return {
    outcome: decision === "stale" ? "recorded" : "applied",
    status: decision === "apply" ? note.status : null,
    serviceOrderId: note.serviceOrderId && !order.serviceOrderId ? note.serviceOrderId : null,
    // The service applies the trade-in value in its modal; the order shows what it took off. A
    // late (stale) notification does not overwrite it.
    tradeInDiscount:
      note.tradeInDiscount !== null &&
      note.tradeInDiscount !== order.tradeInDiscount &&
      decision !== "stale"
        ? note.tradeInDiscount
        : null,
    historyNote,
  };
}

/** Prisma's own DateTime text for SQLite (adapter-better-sqlite3, iso8601), so rows written
 *  here sort and read exactly like rows Prisma wrote. */
function timestamp(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

const ORDER_FIELDS = `"id", "number", "cartId", "status", "serviceOrderId", "price", "tax",
  "shippingPrice", "tradeInDiscount"`;

function prepare(db: Database.Database) {
  // Prisma's adapter turns on safe integers for the connection; these amounts fit a double.
  const s = (sql: string) => db.prepare(sql).safeIntegers(false);
  return {
    orderByServiceIdOrCart: s(
      `SELECT ${ORDER_FIELDS} FROM "Order" WHERE "serviceOrderId" = ? OR "cartId" = ? LIMIT 2`,
    ),
    orderById: s(`SELECT ${ORDER_FIELDS} FROM "Order" WHERE "id" = ?`),
    history: s(
      `SELECT "to" FROM "OrderStatusChange" WHERE "orderId" = ? ORDER BY "createdAt" DESC, rowid DESC`,
    ),
    insert: s(
      `INSERT INTO "ServiceNotification" ("id", "dedupeKey", "notificationId", "event",
        "serviceOrderId", "cartId", "status", "amount", "currency", "tradeInDiscount", "form",
        "body", "outcome", "orderId", "receivedAt", "appliedAt")
       VALUES (@id, @dedupeKey, @notificationId, @event, @serviceOrderId, @cartId, @status,
        @amount, @currency, @tradeInDiscount, @form, @body, @outcome, @orderId, @receivedAt,
        @appliedAt)
       ON CONFLICT ("dedupeKey") DO NOTHING`,
    ),
    waiting: s(
      `SELECT "id", "dedupeKey", "notificationId", "event", "serviceOrderId", "status",
        "tradeInDiscount"
       FROM "ServiceNotification"
       WHERE "orderId" IS NULL AND ("cartId" = ? OR "serviceOrderId" = ?)
       ORDER BY "receivedAt", rowid`,
    ),
    attach: s(
      `UPDATE "ServiceNotification" SET "orderId" = ?, "outcome" = ?, "appliedAt" = ? WHERE "id" = ?`,
    ),
    outcomeOf: s(`SELECT "outcome", "orderId" FROM "ServiceNotification" WHERE "dedupeKey" = ?`),
    updateOrder: s(
      `UPDATE "Order" SET "status" = ?, "serviceOrderId" = COALESCE("serviceOrderId", ?),
        "tradeInDiscount" = ?, "total" = ?, "updatedAt" = ? WHERE "id" = ?`,
    ),
    addHistory: s(
      `INSERT INTO "OrderStatusChange" ("id", "orderId", "from", "to", "source", "note", "createdAt")
       VALUES (?, ?, ?, ?, 'service', ?, ?)`,
    ),
  };
}

type Statements = ReturnType<typeof prepare>;
const cache = new WeakMap<Database.Database, NotificationSql>();

/** The statements of one connection, prepared once. */
export function notificationSql(db: Database.Database): NotificationSql {
  let sql = cache.get(db);
  if (!sql) {
    sql = new NotificationSql(db, prepare(db));
    cache.set(db, sql);
  }
  return sql;
}

export class NotificationSql {
  constructor(
    readonly db: Database.Database,
    private readonly st: Statements,
  ) {}

  /** The order a notification names: by the service's order id first, else by cart id. */
  findOrder(serviceOrderId: string | null, cartId: string | null): OrderRow | null {
    const rows = this.st.orderByServiceIdOrCart.all(serviceOrderId, cartId) as OrderRow[];
    return (
      rows.find((r) => serviceOrderId && r.serviceOrderId === serviceOrderId) ?? rows[0] ?? null
    );
  }

  /** The order's latest status we know: one the service sent that we do not know is skipped,
   *  so a later known status is still checked against where the order really was. */
  lastKnownStatus(order: OrderRow): OrderStatus {
    if (isOrderStatus(order.status)) return order.status;
    const rows = this.st.history.all(order.id) as { to: string }[];
    return rows.map((r) => r.to).find(isOrderStatus) ?? "pending";
  }

  /** Inserts the notification unless its dedupe key is known; false for a duplicate. */
  insert(row: NotificationRow, orderId: string | null, outcome: NotificationOutcome): boolean {
    const now = timestamp(new Date());
    const result = this.st.insert.run({
      ...row,
      id: randomUUID(),
      outcome,
      orderId,
      receivedAt: now,
      appliedAt: orderId ? now : null,
    });
    return result.changes === 1;
  }

  /** The order's new fields (one UPDATE) and, when its status moved, the history row. */
  write(order: OrderRow, plan: NotificationPlan): void {
    if (plan.status === null && plan.serviceOrderId === null && plan.tradeInDiscount === null) {
      return;
    }
    const now = timestamp(new Date());
    const discount = plan.tradeInDiscount ?? order.tradeInDiscount;
    const total = sumCents([order.price, order.tax, order.shippingPrice, -discount]);
    this.st.updateOrder.run(
      plan.status ?? order.status,
      plan.serviceOrderId,
      discount,
      total,
      now,
      order.id,
    );
    if (plan.status !== null) {
      this.st.addHistory.run(
        randomUUID(),
        order.id,
        order.status,
        plan.status,
        plan.historyNote,
        now,
      );
    }
  }

  /**
   * Stores and applies one notification: find the order, insert under the unique dedupe key
   * (ON CONFLICT DO NOTHING: a repeat inserts nothing and changes nothing), update the order.
   * Run it inside a transaction (`receiveNotification`).
   */
  receive(row: NotificationRow): { outcome: NotificationOutcome; orderNumber?: string } {
    const order = this.findOrder(row.serviceOrderId, row.cartId);
    if (!order) return { outcome: this.insert(row, null, "early") ? "early" : "duplicate" };
    const plan = planNotification(order, this.lastKnownStatus(order), row);
    if (!this.insert(row, order.id, plan.outcome)) return { outcome: "duplicate" };
    this.write(order, plan);
    return { outcome: plan.outcome, orderNumber: order.number };
  }

  /** Applies, oldest first, every stored notification of this order not yet applied. */
  applyWaiting(orderId: string): void {
    let order = this.st.orderById.get(orderId) as OrderRow | undefined;
    if (!order) return;
    const waiting = this.st.waiting.all(order.cartId, order.serviceOrderId) as (Pick<
      NotificationRow,
      "dedupeKey" | "notificationId" | "event" | "serviceOrderId" | "status" | "tradeInDiscount"
    > & { id: string })[];
    for (const note of waiting) {
      const plan = planNotification(order, this.lastKnownStatus(order), note);
      this.st.attach.run(order.id, plan.outcome, timestamp(new Date()), note.id);
      this.write(order, plan);
      order = this.st.orderById.get(orderId) as OrderRow;
    }
  }

  /** What became of a stored notification (null: none with this key). */
  outcomeOf(dedupeKey: string): { outcome: NotificationOutcome; orderId: string | null } | null {
    return (this.st.outcomeOf.get(dedupeKey) as ReturnType<NotificationSql["outcomeOf"]>) ?? null;
  }
}

const WAIT_LIMIT_MS = 2000;

/**
 * Runs `fn` in a transaction of its own (BEGIN IMMEDIATE) once the connection is free. It is
 * busy only while one of Prisma's interactive transactions is open on it; those are short, so
 * this waits a turn of the event loop at a time, at most 2 s, then throws (the route answers
 * 500 and the service retries: nothing was written).
 */
export async function inOwnTransaction<T>(db: Database.Database, fn: () => T): Promise<T> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  while (db.inTransaction) {
    if (Date.now() > deadline) throw new Error("SQLite connection busy for over 2 s");
    await new Promise((resolve) => setImmediate(resolve));
  }
  return db.transaction(fn).immediate();
}
