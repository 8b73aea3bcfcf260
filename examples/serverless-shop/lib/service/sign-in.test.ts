// A sign-in rotates the kit's guest identity (a new session id and salt): the guest's own cart
// and the trade-in their browser saw move to the new session, and a sign-in over another
// customer's session carries nothing of theirs (docs/security.md, Sessions). The shop's adapter
// on a fresh database of the test step's cluster; runs in npm test's PostgreSQL step
// (TEST_DATABASE=postgresql).
import { freshPostgresDatabase } from "@service-integration/drizzle-adapter/testing";
import { createTokenSealer } from "@service-integration/kit/server";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { shippedMigrations } from "../../test-support/database";
import { guests } from "../guest";
import * as schema from "../schema";
import { addToCart } from "../shop";
import { carryGuest } from "./sign-in";
import { serviceAdapter } from "./wiring";

process.env.GUEST_IDENTITY_SECRET ??= "sign-in-test-guest-secret-0123456789abcdef";
const admin =
  process.env.TEST_DATABASE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;

describe.skipIf(!admin)("signing in with the kit's guest identity", () => {
  it("a guest's seen trade-in and cart go to the session the sign-in made; over another customer's session nothing of theirs does", async () => {
    const { url, drop } = await freshPostgresDatabase(admin as string, shippedMigrations);
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const db = drizzle(pool, { schema });
    try {
      await db
        .insert(schema.products)
        .values({ id: "phone", name: "P", description: "", price: 1, tax: 0 });
      const adapter = serviceAdapter(db, createTokenSealer("k".repeat(32)));
      const signIn = async (cookie: string, customerId: string) => {
        const { session, cookie: set, carried } = guests().signIn(cookie, customerId);
        await carryGuest(carried, session, customerId, { tradeIns: adapter.tradeIns, db });
        return { session, cookie: `${set.name}=${set.value}` };
      };
      const cartOf = async (sessionId: string) =>
        (await db.select().from(schema.carts).where(eq(schema.carts.openSessionId, sessionId)))[0];

      // A guest fills a cart and sees a trade-in accepted, then signs in as A.
      const guest = guests().replace();
      await addToCart(guest.session.sessionId, "phone", db);
      await adapter.noteTradeInSeen(guest.session.sessionId, "tradein_guest");
      const a = await signIn(`${guest.cookie.name}=${guest.cookie.value}`, "customer-a");
      expect(a.session.sessionId).not.toBe(guest.session.sessionId);
      expect(await adapter.tradeIns.tradeInSeen(a.session.sessionId)).toBe("tradein_guest");
      expect((await cartOf(a.session.sessionId))?.customerId).toBe("customer-a");

      // A sees another trade-in; B signs in at the same browser without signing out.
      await adapter.noteTradeInSeen(a.session.sessionId, "tradein_a");
      const b = await signIn(a.cookie, "customer-b");
      expect(await adapter.tradeIns.tradeInSeen(b.session.sessionId)).toBeNull();
      expect(await cartOf(b.session.sessionId)).toBeUndefined();
      expect(await adapter.tradeIns.tradeInSeen(a.session.sessionId)).toBe("tradein_a");
    } finally {
      await pool.end();
      await drop();
    }
  }, 60_000);
});
