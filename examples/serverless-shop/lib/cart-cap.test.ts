// Cookieless add-to-cart cannot grow the carts without end (docs/security.md, Bounded storage):
// every such request is a new guest session (proxy.ts), and the open guest carts are kept to
// ANONYMOUS_CARTS_MAX in the transaction that adds one. On a fresh database of the test step's
// cluster, from the shop's shipped migrations; runs in npm test's PostgreSQL step
// (TEST_DATABASE=postgresql).
import { randomUUID } from "node:crypto";
import { freshPostgresDatabase } from "@service-integration/drizzle-adapter/testing";
import { and, count, eq, isNotNull, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { TEST_ADDRESS } from "../test-support/address";
import { shippedMigrations } from "../test-support/database";
import * as t from "./schema";
import { addToCart } from "./shop";

const admin =
  process.env.TEST_DATABASE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;
const CAP = 20;
/** Fifteen times the cap: enough to pass it many times over, cheap on one loaded core. */
const ADDS = 300;

describe.skipIf(!admin)("cookieless add-to-cart in the serverless shop", () => {
  it(`${ADDS} new guest sessions keep at most ANONYMOUS_CARTS_MAX (${CAP}) open guest carts; a customer's cart and a cart being paid stay, a payment given up long ago does not`, async () => {
    const { url, drop } = await freshPostgresDatabase(admin as string, shippedMigrations);
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const db = drizzle(pool, { schema: t });
    try {
      await db
        .insert(t.products)
        .values({ id: "phone", name: "P", description: "", price: 1, tax: 0 });
      const add = (sessionId: string, customerId: string | null = null) =>
        addToCart(sessionId, "phone", db, { customerId, cap: CAP });
      const kept = (cartId: string, updatedAt: Date) =>
        db.insert(t.serviceCheckouts).values({
          cartId,
          sessionId: `s-${cartId}`,
          email: "ada@example.com",
          billing: JSON.stringify(TEST_ADDRESS),
          shipping: JSON.stringify(TEST_ADDRESS),
          shippingMethod: "standard",
          updatedAt,
        });
      const cartOf = async (sessionId: string) =>
        (await db.select().from(t.carts).where(eq(t.carts.openSessionId, sessionId)))[0];

      await add("customer-session", "customer-1");
      await add("paying");
      await add("gave-up");
      const paying = await cartOf("paying");
      const gaveUp = await cartOf("gave-up");
      if (!paying || !gaveUp) throw new Error("the seeded carts were not made");
      await kept(paying.id, new Date());
      await kept(gaveUp.id, new Date(Date.now() - 2 * 60 * 60 * 1000));

      for (let i = 0; i < ADDS; i++) await add(randomUUID());

      const guestOpen = and(isNull(t.carts.customerId), isNotNull(t.carts.openSessionId));
      const [guests] = await db.select({ n: count() }).from(t.carts).where(guestOpen);
      expect(guests?.n).toBeLessThanOrEqual(CAP);
      const [lines] = await db.select({ n: count() }).from(t.cartLines);
      expect(lines?.n).toBeLessThanOrEqual(CAP + 1);
      expect(await cartOf("customer-session"), "a signed-in customer's cart").toBeDefined();
      expect(await cartOf("paying"), "a cart whose payment is open").toBeDefined();
      expect(await cartOf("gave-up"), "a payment given up two hours ago").toBeUndefined();
      const checkouts = await db
        .select({ cartId: t.serviceCheckouts.cartId })
        .from(t.serviceCheckouts);
      expect(checkouts.map((c) => c.cartId)).toEqual([paying.id]);
    } finally {
      await pool.end();
      await drop();
    }
  }, 60_000);
});
