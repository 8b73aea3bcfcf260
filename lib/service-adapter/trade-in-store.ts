import "server-only";
import type {
  PlacedOrder,
  TradeInRegistration,
  TradeInRegistrationStore,
} from "@service-integration/kit";
import { getConfig } from "@/lib/config";
import { type Db, isPostgres } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { lockOrders, writeOrderChange } from "@/lib/shop/orders";
import { deliveryChargeOf } from "./contract-cart";
import { isUniqueViolation } from "./service-pay-store";

// The kit's register-purchase store (shop-ports.ts TradeInRegistrationStore) on the
// TradeInRegistration table, in plain Prisma. The row is unique per order and claimed by a
// compare-and-set on `attempts`, so an attempt is never made twice at once.

/** A placed order with its lines and the delivery it charged (shop-ports.ts PlacedOrder). */
export async function loadOrderWithItems(
  db: Pick<Db, "order">,
  orderId: string,
): Promise<PlacedOrder | null> {
  const order = await db.order.findUnique({ where: { id: orderId }, include: { items: true } });
  if (!order) return null;
  const delivery = deliveryChargeOf(
    order.shippingMethod,
    order.currency,
    getConfig().SHOP_BASE_URL,
    order.shippingPrice,
  );
  return { ...order, delivery };
}

/**
 * Records the trade-in this session's browser saw accepted (POST /api/service/trade-in-seen): one
 * row per session, the last one seen. tradeInSeen reads it back.
 */
export async function recordTradeInSeen(
  db: Pick<Db, "sessionTradeIn">,
  sessionId: string,
  tradeInId: string,
  now = new Date(),
): Promise<void> {
  const data = { tradeInId, seenAt: now };
  await db.sessionTradeIn.upsert({
    where: { sessionId },
    create: { sessionId, ...data },
    update: data,
  });
}

function asRegistration(
  row: Omit<TradeInRegistration, "status"> & { status: string },
): TradeInRegistration {
  return { ...row, status: row.status as TradeInRegistration["status"] };
}

export function createTradeInStore(db: Db): TradeInRegistrationStore {
  return {
    order: (orderId) => loadOrderWithItems(db, orderId),

    async find(orderId) {
      const row = await db.tradeInRegistration.findUnique({ where: { orderId } });
      return row ? asRegistration(row) : null;
    },

    async create(row) {
      try {
        await db.tradeInRegistration.create({ data: row });
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    async claim(row, until) {
      const claimed = await db.tradeInRegistration.updateMany({
        where: { id: row.id, status: "queued", attempts: row.attempts },
        data: { attempts: row.attempts + 1, nextAttemptAt: until },
      });
      return claimed.count === 1;
    },

    async finish(row, result, change) {
      await db.$transaction(async (tx) => {
        await tx.tradeInRegistration.update({ where: { id: row.id }, data: result });
        if (!change) return;
        await lockOrders(tx, isPostgres(db), { id: row.orderId });
        const order = await tx.order.findUniqueOrThrow({ where: { id: row.orderId } });
        if (order.tradeInStatus === change.tradeInStatus) return;
        await writeOrderChange(tx, order, { source: "service", ...change });
      });
    },

    async due(now, { limit, all, until }) {
      if (isPostgres(db)) {
        // One statement claims a batch: rows another runner is claiming right now are skipped,
        // not waited for, so the instances' jobs split the queue between them.
        const rows = await db.$queryRaw<{ orderId: string; attempts: number }[]>`
          UPDATE "TradeInRegistration" SET "nextAttemptAt" = ${until}
          WHERE "id" IN (
            SELECT "id" FROM "TradeInRegistration"
            WHERE "status" = 'queued' ${all ? Prisma.empty : Prisma.sql`AND "nextAttemptAt" <= ${now}`}
            ORDER BY "nextAttemptAt" LIMIT ${limit}
            FOR UPDATE SKIP LOCKED)
          RETURNING "orderId", "attempts"`;
        return rows.map((r) => ({ orderId: r.orderId, attempts: Number(r.attempts) }));
      }
      // SQLite (one writer at a time): a conditional update per row; a row another runner moved
      // on in between is not ours.
      const rows = await db.tradeInRegistration.findMany({
        where: { status: "queued", ...(all ? {} : { nextAttemptAt: { lte: now } }) },
        orderBy: { nextAttemptAt: "asc" },
        take: limit,
        select: { id: true, orderId: true, nextAttemptAt: true, attempts: true },
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

    async unreachableSince(since) {
      // The `unreachable` column, written by finish (shop-ports.ts); lastError is words only.
      const row = await db.tradeInRegistration.findFirst({
        where: { status: "queued", unreachable: true, updatedAt: { gte: since } },
        select: { id: true },
      });
      return row !== null;
    },

    async tradeInSeen(sessionId) {
      const row = await db.sessionTradeIn.findUnique({ where: { sessionId } });
      return row?.tradeInId ?? null;
    },
  };
}
