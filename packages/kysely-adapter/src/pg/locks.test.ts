// The PostgreSQL row locks of this adapter (FOR UPDATE where the kit plans an order's change
// from what it read, FOR UPDATE SKIP LOCKED where the retry job leases), proven on the database
// by the kit's row-lock checks (@service-integration/kit/testing, row-lock-checks.ts).
import {
  checkDueSkipsLocked,
  checkFindOrderForLocks,
  type RowLockHost,
} from "@service-integration/kit/testing";
import { sql } from "kysely";
import { describe, it } from "vitest";
import { pgTestDatabase } from "../test-support/host.js";

const admin =
  process.env.TEST_DATABASE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;

async function withHost(check: (host: RowLockHost) => Promise<void>) {
  const { db, adapter, close } = await pgTestDatabase(admin as string);
  try {
    await check({
      adapter,
      async seedCart(sessionId, cartId) {
        await db.insertInto("carts").values({ id: cartId, sessionId }).execute();
        await db
          .insertInto("cartLines")
          .values({ cartId, productId: "phone", quantity: 1 })
          .execute();
      },
      async lockWaiters() {
        const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db);
        return rows[0]?.n ?? 0;
      },
      async lockRegistration(orderId) {
        // Another runner's transaction, held open on a connection of its own.
        const runner = await db.startTransaction().execute();
        await sql`SELECT id FROM service_trade_in_registrations WHERE order_id = ${orderId}
          FOR UPDATE`.execute(runner);
        return { release: () => runner.rollback().execute() };
      },
    });
  } finally {
    await close();
  }
}

describe.skipIf(!admin)("the PostgreSQL adapter's row locks", () => {
  it("findOrderFor locks the order: a second transaction waits, then plans from what the first wrote", () =>
    withHost(checkFindOrderForLocks));

  it("the retry job's lease skips a row another runner holds (FOR UPDATE SKIP LOCKED) instead of waiting", () =>
    withHost(checkDueSkipsLocked));
});
