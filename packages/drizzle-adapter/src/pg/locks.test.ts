// The PostgreSQL row locks of this adapter (FOR UPDATE where the kit plans an order's change
// from what it read, FOR UPDATE SKIP LOCKED where the retry job leases), proven on the database
// by the kit's row-lock checks (@service-integration/kit/testing, row-lock-checks.ts).
import {
  checkDueSkipsLocked,
  checkFindOrderForLocks,
  type RowLockHost,
} from "@service-integration/kit/testing";
import { describe, it } from "vitest";
import { pgTestDatabase } from "../test-support/host.js";

const admin =
  process.env.TEST_DATABASE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;

async function withHost(check: (host: RowLockHost) => Promise<void>) {
  const { pool, adapter, drop } = await pgTestDatabase(admin as string);
  try {
    await check({
      adapter,
      async seedCart(sessionId, cartId) {
        await pool.query("INSERT INTO carts (id, session_id) VALUES ($1, $2)", [cartId, sessionId]);
        await pool.query(
          "INSERT INTO cart_lines (cart_id, product_id, quantity) VALUES ($1, 'phone', 1)",
          [cartId],
        );
      },
      async lockWaiters() {
        const { rows } = await pool.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        return rows[0].n;
      },
      async lockRegistration(orderId) {
        const runner = await pool.connect();
        await runner.query("BEGIN");
        await runner.query(
          "SELECT id FROM service_trade_in_registrations WHERE order_id = $1 FOR UPDATE",
          [orderId],
        );
        return {
          async release() {
            await runner.query("ROLLBACK");
            runner.release();
          },
        };
      },
    });
  } finally {
    await drop();
  }
}

describe.skipIf(!admin)("the PostgreSQL adapter's row locks", () => {
  it("findOrderFor locks the order: a second transaction waits, then plans from what the first wrote", () =>
    withHost(checkFindOrderForLocks));

  it("the retry job's lease skips a row another runner holds (FOR UPDATE SKIP LOCKED) instead of waiting", () =>
    withHost(checkDueSkipsLocked));
});
