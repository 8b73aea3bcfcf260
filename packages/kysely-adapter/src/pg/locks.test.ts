// The PostgreSQL row locks of this adapter (pg.ts: FOR UPDATE where the kit plans an order's
// change from what it read, FOR UPDATE SKIP LOCKED where the retry job leases), seen from the
// database by the kit's row-lock checks (row-lock-checks.ts of @service-integration/kit/testing).
import * as rowLocks from "@service-integration/kit/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, it, onTestFinished } from "vitest";
import { pgTestDatabases, type TestDatabase } from "../test-support/host.js";

const cluster = process.env.TEST_DATABASE === "postgresql" && process.env.TEST_POSTGRES_URL;
// One database for the file, emptied between the checks once a check's pool (its runners'
// transactions with it) has closed, so no lock outlives its check.
const databases = cluster ? pgTestDatabases(cluster) : undefined;

/** The kit's RowLockHost over the file's test database, its pool closed when the check ends. */
async function rowLockHost(): Promise<rowLocks.RowLockHost> {
  const t: TestDatabase = await (databases as NonNullable<typeof databases>)();
  onTestFinished(() => t.close());
  return {
    adapter: t.adapter,
    seedCart: async (sessionId, cartId) => {
      await t.db.insertInto("carts").values({ id: cartId, sessionId }).execute();
      await t.db
        .insertInto("cartLines")
        .values({ cartId, productId: "phone", quantity: 1 })
        .execute();
    },
    lockWaiters: async () => {
      const waiting = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(t.db);
      return waiting.rows[0]?.n ?? 0;
    },
    lockRegistration: async (orderId) => {
      // Another runner's transaction, held open on a connection of its own.
      const runner = await t.db.startTransaction().execute();
      await sql`SELECT 1 FROM service_trade_in_registrations WHERE order_id = ${orderId}
        FOR UPDATE`.execute(runner);
      return { release: () => runner.rollback().execute() };
    },
  };
}

describe.skipIf(!cluster)("the Kysely adapter's row locks on PostgreSQL", () => {
  beforeAll(() => databases?.open());
  afterAll(() => databases?.dispose());
  it("findOrderFor locks the order (FOR UPDATE): a second transaction waits, then plans from what the first wrote", async () =>
    rowLocks.checkFindOrderForLocks(await rowLockHost()));
  it("the retry job's lease skips a row another runner holds (FOR UPDATE SKIP LOCKED) instead of waiting", async () =>
    rowLocks.checkDueSkipsLocked(await rowLockHost()));
});
