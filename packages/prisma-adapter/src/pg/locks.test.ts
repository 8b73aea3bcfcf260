// The PostgreSQL row locks of this adapter (SELECT … FOR UPDATE on the shop's Order rows where
// the kit plans a change from what it read, FOR UPDATE SKIP LOCKED where the retry job leases),
// proven on the database by the kit's row-lock checks (row-lock-checks.ts).
import { checkDueSkipsLocked, checkFindOrderForLocks } from "@service-integration/kit/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, it } from "vitest";
import { testShopDdl } from "../test-support/ddl.js";
import { pgTestDatabases } from "../test-support/host.js";
import { PHONE } from "../test-support/shop-callbacks.js";

const admin =
  process.env.TEST_DATABASE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;
// Made once, when the file is collected (the Prisma CLI takes seconds).
const shopDdl = admin ? testShopDdl("postgresql", admin) : "";
// One database for the file, emptied between the checks: each check closes every connection it
// opened (its watcher, its runners) before the next empties it, so no lock outlives its check.
const databases = admin ? pgTestDatabases(admin, shopDdl) : undefined;

type Check = typeof checkFindOrderForLocks;

async function withHost(check: Check) {
  const t = await (databases as NonNullable<typeof databases>)();
  const watcher = new pg.Client({ connectionString: t.url });
  await watcher.connect();
  const runners = new Set<pg.Client>();
  try {
    await check({
      adapter: t.adapter,
      async seedCart(sessionId, id) {
        await t.db.cart.create({
          data: { id, sessionId, lines: { create: [{ productId: PHONE.id, quantity: 1 }] } },
        });
      },
      async lockWaiters() {
        const { rows } = await watcher.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        return rows[0].n;
      },
      async lockRegistration(orderId) {
        const runner = new pg.Client({ connectionString: t.url });
        runners.add(runner);
        await runner.connect();
        await runner.query("BEGIN");
        await runner.query(
          `SELECT "id" FROM "TradeInRegistration" WHERE "orderId" = $1 FOR UPDATE`,
          [orderId],
        );
        return {
          async release() {
            await runner.query("ROLLBACK");
            runners.delete(runner);
            await runner.end();
          },
        };
      },
    });
  } finally {
    // A check that failed before its release leaves its runner's lock: ended here.
    for (const runner of runners) await runner.end();
    await watcher.end();
    await t.close();
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
