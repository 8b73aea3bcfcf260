// The kit's conformance suite on the Prisma adapter as the quick start configures it
// (docs/integrating.md, "Quick start": its callbacks, its migrations, its iron-session cookie):
// every check on a fresh SQLite file made by the migrations in prisma/migrations (the adapter's
// and the shop's). It runs in the host scripts/minimal-shop.mjs builds from the doc's files and
// installs from the tarballs (the quick start's files are not in this folder).
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTokenSealer } from "@service-integration/kit/server";
import {
  type ConformanceHost,
  freshDatabasePerCheck,
  runShopPortsConformance,
} from "@service-integration/kit/testing";
import Database from "better-sqlite3";
import { TEST_ADDRESS } from "../../test-support/address";
import { openDatabase } from "../db";
import { newSession, SESSION_COOKIE, seal } from "../session";
import { addToCart, SHIPPING } from "../shop";
import { identity, type ShopDb, statuses } from "./callbacks";
import { serviceAdapter } from "./wiring";

process.env.SESSION_SECRET ??= "conformance-session-secret-0123456789";
const migrations = path.join(import.meta.dirname, "../../prisma/migrations");
const PHONE = { id: "phone", name: "Phone X", description: "A phone.", price: 42000, tax: 7980 };

/** A new database file with every migration applied, in order, and the one product. */
async function fresh(): Promise<{ db: ShopDb; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), "quickstart-conformance-"));
  const file = path.join(dir, "shop.db");
  const sqlite = new Database(file);
  // As lib/db.ts opens the shop's database: write-ahead log, one fsync a commit.
  sqlite.pragma("journal_mode = WAL");
  for (const name of readdirSync(migrations)
    .filter((n) => /^\d+_/.test(n))
    .sort())
    sqlite.exec(readFileSync(path.join(migrations, name, "migration.sql"), "utf8"));
  sqlite.close();
  const db = openDatabase(`file:${file}`);
  await db.product.create({ data: PHONE });
  return { db, dir };
}

function quickStartHost({ db }: { db: ShopDb }): ConformanceHost {
  const adapter = serviceAdapter(db, createTokenSealer("k".repeat(32)));
  return {
    servicePay: adapter.servicePay,
    statuses,
    orders: adapter.orders,
    tradeIns: adapter.tradeIns,
    tokens: adapter.tokens,
    identity,
    shopper: adapter.shopper,
    recordTradeInSeen: (sessionId, tradeInId) => adapter.noteTradeInSeen(sessionId, tradeInId),
    async issueSession(customerId) {
      // The iron-session cookie, as proxy.ts issues it and sign-in keeps it.
      const session = { ...newSession(), ...(customerId ? { customerId } : {}) };
      return { cookie: `${SESSION_COOKIE}=${await seal(session)}`, identity: session };
    },
    async seedCustomer() {
      const id = randomUUID();
      const customer = { id, email: `ada-${id}@example.com`, givenName: "Ada", familyName: "L" };
      await db.customer.create({ data: { ...customer, passwordHash: "-" } });
      // The quick start keeps no customer address.
      return { ...customer, address: null };
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
      JSON.stringify([await db.serviceToken.findMany(), await db.lease.findMany()]),
  };
}

runShopPortsConformance(
  freshDatabasePerCheck({
    open: fresh,
    host: quickStartHost,
    dispose: async ({ db, dir }) => {
      await db.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    },
  }),
  "the quick start on the Prisma adapter (SQLite)",
);
