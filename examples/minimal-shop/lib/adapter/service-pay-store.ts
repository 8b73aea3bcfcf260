import "server-only";
import { randomUUID } from "node:crypto";
import {
  type AcceptedValuation,
  addressSchema,
  ConcurrentWriteError,
  type KeptCheckout,
  type ServicePayStore,
  type ServicePayTx,
  type ShopOrder,
  type WaitingNotification,
} from "@service-integration/kit";
import { z } from "zod";
import { db, isUniqueViolation, transaction } from "../db";
import { createOrderFromCart, openCart } from "../shop";
import { changeOrder, productUrl } from "./orders";

// The kit's Service Pay store on the shop's SQLite tables. Each transaction is BEGIN
// IMMEDIATE (../db.ts): SQLite's write lock is held from the start, so findOrderFor's row is
// locked until commit. The unique keys are the tables' own: orders.cartId,
// orders.serviceOrderId, notifications.dedupeKey, checkouts.cartId (shop-ports.ts).

const detailsSchema = z.object({
  email: z.string(),
  billing: addressSchema,
  shipping: addressSchema,
  shippingMethod: z.string(),
});

const NO_VALUATION: AcceptedValuation = {
  valuationState: null,
  valuationItemId: null,
  valuationValue: null,
  valuationCurrency: null,
  valuationNote: null,
};

function valuationOf(v: AcceptedValuation): AcceptedValuation {
  const { valuationState, valuationItemId, valuationValue, valuationCurrency, valuationNote } = v;
  return { valuationState, valuationItemId, valuationValue, valuationCurrency, valuationNote };
}

const one = <T>(sql: string, ...args: unknown[]) =>
  (db()
    .prepare(sql)
    .get(...args) as T | undefined) ?? null;

export function loadCheckout(cartId: string): KeptCheckout | null {
  const row = one<KeptCheckout & { details: string; keptAt: number }>(
    "SELECT * FROM checkouts WHERE cartId = ?",
    cartId,
  );
  if (!row) return null;
  const details = detailsSchema.safeParse(JSON.parse(row.details));
  if (!details.success) return null;
  return { ...row, details: details.data, keptAt: new Date(row.keptAt) };
}

const tx: ServicePayTx = {
  async openCartId(sessionId) {
    const cart = openCart(sessionId);
    return cart && cart.lines.length > 0 ? cart.id : null;
  },
  async findSessionOrder(sessionId, where) {
    return "cartId" in where
      ? one<ShopOrder>(
          "SELECT * FROM orders WHERE cartId = ? AND sessionId = ?",
          where.cartId,
          sessionId,
        )
      : one<ShopOrder>(
          `SELECT * FROM orders WHERE sessionId = ? AND paymentMethod = 'service_pay' AND createdAt >= ?
           ORDER BY createdAt DESC LIMIT 1`,
          sessionId,
          where.since.getTime(),
        );
  },
  async saveCheckout({ cartId, sessionId, customerId, details, valuation }) {
    const v = valuation ? valuationOf(valuation) : null;
    db()
      .prepare(
        `INSERT INTO checkouts VALUES (@cartId, @sessionId, @customerId, @details, @valuationState,
          @valuationItemId, @valuationValue, @valuationCurrency, @valuationNote, @keptAt)
         ON CONFLICT(cartId) DO UPDATE SET sessionId = excluded.sessionId,
          customerId = excluded.customerId, details = excluded.details, keptAt = excluded.keptAt
          ${
            v
              ? `, valuationState = excluded.valuationState, valuationItemId = excluded.valuationItemId,
          valuationValue = excluded.valuationValue, valuationCurrency = excluded.valuationCurrency,
          valuationNote = excluded.valuationNote`
              : ""
          }`,
      )
      .run({
        cartId,
        sessionId,
        customerId,
        details: JSON.stringify(details),
        ...(v ?? NO_VALUATION),
        keptAt: Date.now(),
      });
  },
  async loadCheckout(cartId) {
    return loadCheckout(cartId);
  },
  async dropCheckout(cartId) {
    db().prepare("DELETE FROM checkouts WHERE cartId = ?").run(cartId);
  },
  async createPendingOrder({ status, sessionId, customerId, details, valuation, note }) {
    const v = valuationOf(valuation);
    const found = v.valuationState
      ? `accepted valuation ${v.valuationState} (${v.valuationNote ?? ""})`
      : "no valuation looked up";
    return createOrderFromCart({
      sessionId,
      customerId,
      email: details.email,
      details,
      paymentMethod: "service_pay",
      status,
      valuation: v,
      note: `${note}; ${found}`,
      productUrl,
    });
  },
  async claimNotification(n) {
    const id = randomUUID();
    const inserted = db()
      .prepare(
        `INSERT INTO notifications (id, dedupeKey, notificationId, event, serviceOrderId, cartId,
          status, amount, currency, tradeInDiscount, customerId, form, body, outcome, receivedAt)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'early', ?) ON CONFLICT(dedupeKey) DO NOTHING`,
      )
      .run(
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
        n.customerId,
        n.form,
        n.body,
        Date.now(),
      );
    return inserted.changes === 1 ? id : null;
  },
  async notificationIdTaken(notificationId, dedupeKey) {
    return (
      one(
        "SELECT 1 FROM notifications WHERE notificationId = ? AND dedupeKey <> ?",
        notificationId,
        dedupeKey,
      ) !== null
    );
  },
  async notificationOutcome(dedupeKey) {
    return one("SELECT outcome, orderId FROM notifications WHERE dedupeKey = ?", dedupeKey);
  },
  async settleNotification(id, orderId, outcome) {
    db()
      .prepare("UPDATE notifications SET orderId = ?, outcome = ? WHERE id = ?")
      .run(orderId, outcome, id);
  },
  async waitingNotifications(cartId, serviceOrderId) {
    return db()
      .prepare(
        `SELECT * FROM notifications WHERE orderId IS NULL AND (cartId = ? OR serviceOrderId = ?)
         ORDER BY receivedAt, id`,
      )
      .all(cartId, serviceOrderId) as WaitingNotification[];
  },
  async hasWaitingNotification(cartId) {
    return one("SELECT 1 FROM notifications WHERE cartId = ? AND orderId IS NULL", cartId) !== null;
  },
  async findOrderFor(serviceOrderId, cartId) {
    // Locked: the transaction holds SQLite's write lock since BEGIN IMMEDIATE.
    return (
      (serviceOrderId
        ? one<ShopOrder>("SELECT * FROM orders WHERE serviceOrderId = ?", serviceOrderId)
        : null) ?? (cartId ? one<ShopOrder>("SELECT * FROM orders WHERE cartId = ?", cartId) : null)
    );
  },
  async statusHistory(orderId) {
    const rows = db()
      .prepare("SELECT toStatus FROM order_history WHERE orderId = ? ORDER BY seq DESC")
      .all(orderId) as { toStatus: string }[];
    return rows.map((r) => r.toStatus);
  },
  async changeOrder(order, change) {
    return changeOrder(order, change);
  },
};

export const miniServicePayStore: ServicePayStore = {
  async openCartCheckout(sessionId) {
    // better-sqlite3 is synchronous: the two reads see one state of the database.
    const cart = openCart(sessionId);
    return cart && cart.lines.length > 0 ? loadCheckout(cart.id) : null;
  },
  async transaction(fn) {
    try {
      return await transaction(() => fn(tx));
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ConcurrentWriteError("unique key taken", { cause: error });
      throw error;
    }
  },
};
