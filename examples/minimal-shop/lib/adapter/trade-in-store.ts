import "server-only";
import { randomUUID } from "node:crypto";
import type { TradeInRegistration, TradeInRegistrationStore } from "@service-integration/kit";
import { db, transaction } from "../db";
import { orderById } from "../shop";
import { changeOrder, placedOrder } from "./orders";

// register-purchase of card orders (shop-ports.ts TradeInRegistrationStore) on `registrations`:
// unique per order (INSERT … ON CONFLICT(orderId) DO NOTHING), claimed by a compare-and-set on
// `attempts`.

type Row = TradeInRegistration & { precheck: number | boolean; unreachable: number | boolean };
const asRegistration = (row: Row | undefined): TradeInRegistration | null =>
  row ? { ...row, precheck: Boolean(row.precheck), unreachable: Boolean(row.unreachable) } : null;
const ms = (date: Date | null) => (date ? date.getTime() : null);

export const miniTradeInStore: TradeInRegistrationStore = {
  async order(orderId) {
    return placedOrder(orderId);
  },
  async find(orderId) {
    return asRegistration(
      db().prepare("SELECT * FROM registrations WHERE orderId = ?").get(orderId) as Row,
    );
  },
  async create(row) {
    return transaction(
      () =>
        db()
          .prepare(
            `INSERT INTO registrations (id, orderId, sessionHash, cart, orderAmount, customerId,
              status, precheck, attempts, unreachable, nextAttemptAt, updatedAt)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT(orderId) DO NOTHING`,
          )
          .run(
            randomUUID(),
            row.orderId,
            row.sessionHash,
            row.cart,
            row.orderAmount,
            row.customerId,
            row.status,
            row.precheck ? 1 : 0,
            row.attempts,
            row.unreachable ? 1 : 0,
            ms(row.nextAttemptAt),
            Date.now(),
          ).changes === 1,
    );
  },
  async claim(row, until) {
    return transaction(
      () =>
        db()
          .prepare(
            `UPDATE registrations SET attempts = attempts + 1, nextAttemptAt = ?, updatedAt = ?
             WHERE id = ? AND status = 'queued' AND attempts = ?`,
          )
          .run(until.getTime(), Date.now(), row.id, row.attempts).changes === 1,
    );
  },
  async finish(row, result, change) {
    await transaction(() => {
      db()
        .prepare(
          `UPDATE registrations SET status = ?, precheck = ?, unreachable = ?, reason = ?,
            lastError = ?, nextAttemptAt = ?, response = ?, updatedAt = ? WHERE id = ?`,
        )
        .run(
          result.status,
          result.precheck ? 1 : 0,
          result.unreachable ? 1 : 0,
          result.reason,
          result.lastError,
          ms(result.nextAttemptAt),
          result.response ?? null,
          Date.now(),
          row.id,
        );
      const order = orderById(row.orderId);
      if (!change || !order || order.tradeInStatus === change.tradeInStatus) return;
      changeOrder(order, { source: "service", ...change });
    });
  },
  async due(now, { limit, all, until }) {
    return transaction(() => {
      const rows = db()
        .prepare(
          `SELECT id, orderId, attempts FROM registrations
           WHERE status = 'queued' AND (? OR nextAttemptAt <= ?) ORDER BY nextAttemptAt LIMIT ?`,
        )
        .all(all ? 1 : 0, now.getTime(), limit) as {
        id: string;
        orderId: string;
        attempts: number;
      }[];
      // One transaction (BEGIN IMMEDIATE): the attempts read are the ones leased.
      const claim = db().prepare("UPDATE registrations SET nextAttemptAt = ? WHERE id = ?");
      for (const r of rows) claim.run(until.getTime(), r.id);
      return rows.map((r) => ({ orderId: r.orderId, attempts: r.attempts }));
    });
  },
  async tradeInSeen() {
    // Not kept: this shop does not post the SDK's valuation to a trade-in-seen route.
    return null;
  },
  async unreachableSince(since) {
    return (
      db()
        .prepare(
          `SELECT 1 FROM registrations WHERE status = 'queued' AND unreachable = 1
           AND updatedAt >= ?`,
        )
        .get(since.getTime()) !== undefined
    );
  },
};
