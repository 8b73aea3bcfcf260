// The PostgreSQL row locks of this adapter (SELECT … FOR UPDATE on the shop's Order rows where
// the kit plans a change from what it read, FOR UPDATE SKIP LOCKED where the retry job leases),
// proven on the database by the kit's row-lock checks (row-lock-checks.ts).
import { checkDueSkipsLocked, checkFindOrderForLocks } from "@service-integration/kit/testing";
import pg from "pg";
import { describe, it } from "vitest";
import { testShopDdl } from "../test-support/ddl.js";
import { pgTestDatabase } from "../test-support/host.js";
import { PHONE } from "../test-support/shop-callbacks.js";

const admin =
  process.env.TEST_DATABASE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;
// Made once, when the file is collected (the Prisma CLI takes seconds).
const shopDdl = admin ? testShopDdl("postgresql", admin) : "";

type Check = typeof checkFindOrderForLocks;

async function withHost(check: Check) {
  const t = await pgTestDatabase(admin as string, shopDdl);
  const watcher = new pg.Client({ connectionString: t.url });
  await watcher.connect();
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
        await runner.connect();
        await runner.query("BEGIN");
        await runner.query(
          `SELECT "id" FROM "TradeInRegistration" WHERE "orderId" = $1 FOR UPDATE`,
          [orderId],
        );
        return {
          async release() {
            await runner.query("ROLLBACK");
            await runner.end();
          },
        };
      },
    });
  } finally {
    await watcher.end();
    await t.close();
  }
}

describe.skipIf(!admin)("the PostgreSQL adapter's row locks", () => {
  it("findOrderFor locks the order: a second transaction waits, then plans from what the first wrote", () =>
    withHost(checkFindOrderForLocks));

  it("the retry job's lease skips a row another runner holds (FOR UPDATE SKIP LOCKED) instead of waiting", () =>
    withHost(checkDueSkipsLocked));
});
