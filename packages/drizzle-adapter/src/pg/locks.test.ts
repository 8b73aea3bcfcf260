// The PostgreSQL row locks of this adapter (FOR UPDATE where the kit plans an order's change
// from what it read, FOR UPDATE SKIP LOCKED where the retry job leases), proven on the database
// by the kit's row-lock checks (@service-integration/kit/testing, row-lock-checks.ts).
import {
  checkDueSkipsLocked,
  checkFindOrderForLocks,
  type RowLockHost,
} from "@service-integration/kit/testing";
import type pg from "pg";
import { afterAll, beforeAll, describe, it } from "vitest";
import { pgTestDatabases } from "../test-support/host.js";

const admin =
  process.env.TEST_DATABASE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;
// One database for the file, emptied between the checks once a check's pool has ended (its
// runners' connections with it), so no lock outlives its check.
const databases = admin ? pgTestDatabases(admin) : undefined;

async function withHost(check: (host: RowLockHost) => Promise<void>) {
  const { pool, adapter, close } = await (databases as NonNullable<typeof databases>)();
  const runners = new Set<pg.PoolClient>();
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
        runners.add(runner);
        await runner.query("BEGIN");
        await runner.query(
          "SELECT id FROM service_trade_in_registrations WHERE order_id = $1 FOR UPDATE",
          [orderId],
        );
        return {
          async release() {
            await runner.query("ROLLBACK");
            runners.delete(runner);
            runner.release();
          },
        };
      },
    });
  } finally {
    // A check that failed before its release leaves its runner's lock: its connection is ended
    // here (the pool's end waits for every client to come back).
    for (const runner of runners) runner.release(true);
    await close();
  }
}

describe.skipIf(!admin)("the PostgreSQL adapter's row locks", () => {
  beforeAll(() => databases?.open());
  afterAll(() => databases?.dispose());

  it("findOrderFor locks the order: a second transaction waits, then plans from what the first wrote", () =>
    withHost(checkFindOrderForLocks));

  it("the retry job's lease skips a row another runner holds (FOR UPDATE SKIP LOCKED) instead of waiting", () =>
    withHost(checkDueSkipsLocked));
});
