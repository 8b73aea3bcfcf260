// The row locks the PostgreSQL adapter takes where the kit plans a change from what it read
// (shop-ports.ts findOrderFor; the retry job's `due`), seen from the database: a second
// transaction waits on the locked order and then reads what the first wrote; the retry job's
// lease skips a row another runner has locked instead of waiting for it. The conformance suite
// passes without them more often than not (its races are short): these checks do not.
import { randomUUID } from "node:crypto";
import { createServicePendingOrder } from "@service-integration/kit/server";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { testShopDdl } from "../test-support/ddl.js";
import { pgTestDatabase } from "../test-support/host.js";
import { PHONE, testShopStatuses } from "../test-support/shop-callbacks.js";

const admin =
  process.env.TEST_DATABASE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
// Made once, when the file is collected (the Prisma CLI takes seconds).
const shopDdl = admin ? testShopDdl("postgresql", admin) : "";

const ADDRESS = {
  given_name: "Ada",
  family_name: "Lovelace",
  phone: "",
  address: "1 Main Street",
  city: "Berlin",
  state: "",
  country_code: "DE",
  postal_code: "10115",
};

describe.skipIf(!admin)("the PostgreSQL adapter's row locks", () => {
  it("findOrderFor locks the order: a second transaction waits, then plans from what the first wrote", async () => {
    const t = await pgTestDatabase(admin as string, shopDdl);
    const watcher = new pg.Client({ connectionString: t.url });
    await watcher.connect();
    try {
      const sessionId = randomUUID();
      const cart = await t.db.cart.create({
        data: { sessionId, lines: { create: [{ productId: PHONE.id, quantity: 1 }] } },
      });
      const made = await createServicePendingOrder(
        {
          store: t.adapter.servicePay,
          statuses: testShopStatuses,
          mode: "ready_to_place_order",
          shopBaseUrl: "http://shop.test",
        },
        {
          sessionId,
          customerId: null,
          cartId: cart.id,
          details: {
            email: "a@example.com",
            billing: ADDRESS,
            shipping: ADDRESS,
            shippingMethod: "standard",
          },
        },
      );
      expect(made).toMatchObject({ ok: true, created: true });

      /** Resolves once a backend of this database waits on a lock (pg_stat_activity). */
      let stop = false;
      const someoneWaits = (async () => {
        while (!stop) {
          const { rows } = await watcher.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          );
          if (rows[0].n > 0) return "waiting" as const;
          await yieldTurn();
        }
        return "stopped" as const;
      })();
      let second: Promise<{ status: string } | null> | undefined;
      await t.adapter.servicePay.transaction(async (tx) => {
        const order = await tx.findOrderFor(null, cart.id);
        if (!order) throw new Error("no order");
        second = t.adapter.servicePay.transaction((t2) => t2.findOrderFor(null, cart.id));
        const first = await Promise.race([second.then(() => "returned" as const), someoneWaits]);
        stop = true;
        expect(first, "the second findOrderFor waits on the locked order").toBe("waiting");
        await tx.changeOrder(order, { to: "paid", source: "service", note: "first" });
      });
      expect((await second)?.status, "read after the first committed").toBe("paid");
    } finally {
      await watcher.end();
      await t.close();
    }
  });

  it("the retry job's lease skips a row another runner holds (FOR UPDATE SKIP LOCKED) instead of waiting", async () => {
    const t = await pgTestDatabase(admin as string, shopDdl);
    const runner = new pg.Client({ connectionString: t.url });
    await runner.connect();
    try {
      const now = new Date("2030-01-01T12:00:00Z");
      for (const orderId of ["o1", "o2", "o3"]) {
        await t.adapter.tradeIns.create({
          orderId,
          sessionHash: "h",
          cart: "e30=",
          orderAmount: 1,
          customerId: null,
          status: "queued",
          precheck: true,
          attempts: 0,
          unreachable: false,
          nextAttemptAt: now,
        });
      }
      await runner.query("BEGIN");
      await runner.query(
        `SELECT "id" FROM "TradeInRegistration" WHERE "orderId" = 'o2' FOR UPDATE`,
      );
      const leased = await t.adapter.tradeIns.due(now, {
        limit: 10,
        all: false,
        until: new Date(now.getTime() + 60_000),
      });
      expect(leased.map((l) => l.orderId).sort()).toEqual(["o1", "o3"]);
    } finally {
      await runner.query("ROLLBACK");
      await runner.end();
      await t.close();
    }
  });
});
