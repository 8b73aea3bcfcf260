// The kit's conformance suite on the Drizzle adapter as this shop configures it on PostgreSQL:
// its callbacks, its tables from its shipped migrations, its session identity (the kit's guest
// cookie and Better Auth's session, signed in through Better Auth itself). Every check on a fresh
// database of the test step's cluster; runs in npm test's PostgreSQL step
// (TEST_DATABASE=postgresql, scripts/vitest-postgres.ts starts the cluster).
import { randomUUID } from "node:crypto";
import { freshPostgresDatabase } from "@service-integration/drizzle-adapter/testing";
import { createTokenSealer } from "@service-integration/kit/server";
import { type ConformanceHost, runShopPortsConformance } from "@service-integration/kit/testing";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { describe, it } from "vitest";
import { TEST_ADDRESS } from "../../test-support/address";
import { shippedMigrations } from "../../test-support/database";
import { makeAuth } from "../auth";
import { guests } from "../guest";
import * as schema from "../schema";
import { addToCart, SHIPPING } from "../shop";
import { statuses } from "./callbacks";
import { identityWith, serviceAdapter } from "./wiring";

process.env.GUEST_IDENTITY_SECRET ??= "conformance-guest-secret-0123456789abcdef";
process.env.BETTER_AUTH_SECRET ??= "conformance-auth-secret-0123456789abcdef";
const PHONE = { id: "phone", name: "Telefon X", description: "", price: 42000, tax: 7980 };
const PASSWORD = "conformance password 42";
const admin =
  process.env.TEST_DATABASE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;

async function serverlessHost(adminUrl: string): Promise<ConformanceHost> {
  const { url, drop } = await freshPostgresDatabase(adminUrl, shippedMigrations);
  const pool = new pg.Pool({ connectionString: url, max: 5 });
  const db = drizzle(pool, { schema });
  await db.insert(schema.products).values(PHONE);
  const adapter = serviceAdapter(db, createTokenSealer("k".repeat(32)));
  const auth = makeAuth(db);
  const emails = new Map<string, string>();
  return {
    servicePay: adapter.servicePay,
    statuses,
    orders: adapter.orders,
    tradeIns: adapter.tradeIns,
    tokens: adapter.tokens,
    identity: identityWith(auth),
    shopper: adapter.shopper,
    recordTradeInSeen: (sessionId, tradeInId) => adapter.noteTradeInSeen(sessionId, tradeInId),
    async issueSession(customerId) {
      // The guest cookie as proxy.ts makes it; signed in, Better Auth's own cookies beside it.
      const { session, cookie } = guests().replace();
      const cookies = [`${cookie.name}=${cookie.value}`];
      const email = customerId ? emails.get(customerId) : undefined;
      if (email) {
        const answer = await auth.api.signInEmail({
          body: { email, password: PASSWORD },
          asResponse: true,
        });
        for (const set of answer.headers.getSetCookie()) cookies.push(set.split(";")[0] ?? "");
      }
      return { cookie: cookies.join("; "), identity: session };
    },
    async seedCustomer() {
      const email = `ada-${randomUUID()}@example.com`;
      const { user } = await auth.api.signUpEmail({
        body: { name: "Ada Lovelace", email, password: PASSWORD },
      });
      emails.set(user.id, email);
      return { id: user.id, email, givenName: "Ada", familyName: "Lovelace", address: null };
    },
    async seedOpenCart() {
      const sessionId = randomUUID();
      await addToCart(sessionId, PHONE.id, db);
      const details = {
        email: "ada@example.com",
        billing: TEST_ADDRESS,
        shipping: TEST_ADDRESS,
        shippingMethod: SHIPPING.id,
      };
      return {
        sessionId,
        details,
        owes: PHONE.price + PHONE.tax + SHIPPING.price,
        currency: "EUR",
      };
    },
    persistedTokenText: async () =>
      JSON.stringify([
        (await pool.query("SELECT * FROM service_tokens")).rows,
        (await pool.query("SELECT * FROM service_leases")).rows,
      ]),
    async close() {
      await pool.end();
      await drop();
    },
  };
}

if (admin)
  runShopPortsConformance(
    () => serverlessHost(admin),
    "the serverless shop on the Drizzle adapter (PostgreSQL, Better Auth)",
  );
else
  describe("the serverless shop on the Drizzle adapter (PostgreSQL, Better Auth)", () => {
    it.skip("runs in the PostgreSQL step (TEST_DATABASE=postgresql)", () => {});
  });
