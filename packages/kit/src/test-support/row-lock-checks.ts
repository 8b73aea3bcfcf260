// The row locks a PostgreSQL adapter takes where the kit plans a change from what it read
// (shop-ports.ts findOrderFor; the retry job's `due`), seen from the database: a second
// transaction waits on the locked order and then reads what the first wrote; the retry job's
// lease skips a row another runner has locked instead of waiting for it. The conformance suite
// passes without them more often than not (its races are short): these checks do not. Each
// adapter runs them on its own database through a RowLockHost.
import { expect } from "vitest";
import { createServicePendingOrder } from "../pending-order.js";
import type { ServiceAdapter } from "../service-adapter.js";
import type { TradeInRegistration } from "../shop-ports.js";
import { testCheckout, testShopStatuses } from "./adapter-test-shop.js";
import { openPaymentWindow } from "./payment-window.js";

/** What the row-lock checks need of a PostgreSQL adapter's test database. */
export interface RowLockHost {
  /** The adapter under test (its Service Pay, trade-in and shopper stores). */
  adapter: Pick<ServiceAdapter, "servicePay" | "tradeIns" | "shopper">;
  /** Writes a new session's open cart of one phone (the test shop's tables). */
  seedCart(sessionId: string, cartId: string): Promise<void>;
  /** How many backends of this database wait on a lock now (pg_stat_activity). */
  lockWaiters(): Promise<number>;
  /** Locks the registration row of `orderId` (FOR UPDATE) in a transaction of another
   *  connection; `release` rolls it back. */
  lockRegistration(orderId: string): Promise<{
    /** Rolls the locking transaction back, releasing the row. */
    release(): Promise<void>;
  }>;
}

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A queued registration of `orderId`, due at `nextAttemptAt`. */
export function queuedRegistration(
  orderId: string,
  nextAttemptAt: Date,
): Omit<TradeInRegistration, "id"> & {
  /** When the retry job may attempt it (due at or after). */
  nextAttemptAt: Date;
} {
  const row = { orderId, sessionHash: "h", cart: "e30=", orderAmount: 1, customerId: null };
  return {
    ...row,
    status: "queued",
    precheck: true,
    attempts: 0,
    unreachable: false,
    nextAttemptAt,
  };
}

/** findOrderFor locks the order: a second transaction waits, then plans from what the first
 *  wrote. */
export async function checkFindOrderForLocks(host: RowLockHost): Promise<void> {
  const { adapter } = host;
  const sessionId = crypto.randomUUID();
  const cartId = crypto.randomUUID();
  await host.seedCart(sessionId, cartId);
  await openPaymentWindow(adapter, testCheckout(sessionId), "http://shop.test");
  const made = await createServicePendingOrder(
    {
      store: adapter.servicePay,
      statuses: testShopStatuses,
      mode: "ready_to_place_order",
      shopBaseUrl: "http://shop.test",
    },
    { sessionId, customerId: null, cartId, details: testCheckout(sessionId).details },
  );
  expect(made).toMatchObject({ ok: true, created: true });

  /** Resolves once a backend of this database waits on a lock. */
  let stop = false;
  const someoneWaits = (async () => {
    while (!stop) {
      if ((await host.lockWaiters()) > 0) return "waiting" as const;
      await yieldTurn();
    }
    return "stopped" as const;
  })();
  let second: Promise<{ status: string } | null> | undefined;
  await adapter.servicePay.transaction(async (tx) => {
    const order = await tx.findOrderFor(null, cartId);
    if (!order) throw new Error("no order");
    second = adapter.servicePay.transaction((t2) => t2.findOrderFor(null, cartId));
    const first = await Promise.race([second.then(() => "returned" as const), someoneWaits]);
    stop = true;
    expect(first, "the second findOrderFor waits on the locked order").toBe("waiting");
    await tx.changeOrder(order, { to: "paid", source: "service", note: "first" });
  });
  expect((await second)?.status, "read after the first committed").toBe("paid");
}

/** The retry job's lease skips a row another runner holds (FOR UPDATE SKIP LOCKED) instead of
 *  waiting for it. */
export async function checkDueSkipsLocked(host: RowLockHost): Promise<void> {
  const now = new Date("2030-01-01T12:00:00Z");
  for (const orderId of ["o1", "o2", "o3"]) {
    await host.adapter.tradeIns.create(queuedRegistration(orderId, now));
  }
  const held = await host.lockRegistration("o2");
  try {
    const until = new Date(now.getTime() + 60_000);
    const leased = await host.adapter.tradeIns.due(now, { limit: 10, all: false, until });
    expect(leased.map((l) => l.orderId).sort()).toEqual(["o1", "o3"]);
  } finally {
    await held.release();
  }
}
