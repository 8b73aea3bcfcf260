// The conformance host of each provider: a fresh database made from the SHIPPED migration of
// prisma/service.prisma plus the test shop's own tables, the adapter over it through the test
// shop's generated client, and the seeding hooks the suite asks for.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { ShopCustomer } from "@service-integration/kit";
import { createGuestIdentity, createTokenSealer } from "@service-integration/kit/server";
import type { ConformanceHost } from "@service-integration/kit/testing";
import Database from "better-sqlite3";
import pg from "pg";
import type { PrismaServiceAdapter } from "../core.js";
import { prismaServiceAdapter as pgAdapter } from "../pg.js";
import { prismaServiceAdapter as sqliteAdapter } from "../sqlite.js";
import { PrismaClient as PgClient } from "./generated/postgresql/client.js";
import { PrismaClient } from "./generated/sqlite/client.js";
import { PHONE, testShopCallbacks, testShopStatuses } from "./shop-callbacks.js";

export const sealer = createTokenSealer("k".repeat(32));
const packageRoot = path.resolve(import.meta.dirname, "../..");

/** The shipped initial migration of `provider`. */
export function shippedMigration(provider: "sqlite" | "postgresql"): string {
  return readFileSync(
    path.join(
      packageRoot,
      "prisma",
      provider,
      "migrations/20261126000000_service_init/migration.sql",
    ),
    "utf8",
  );
}

const CHECKOUT_ADDRESS = {
  given_name: "Ada",
  family_name: "Lovelace",
  phone: "+49301234567",
  address: "1 Main Street",
  city: "Berlin",
  state: "",
  country_code: "DE",
  postal_code: "10115",
};

/** The test shop's session identity (SessionIdentity stays the shop's): the kit's guest cookie,
 *  and a `test_customer` cookie standing in for the shop's auth library. */
const guests = createGuestIdentity({
  secret: "s".repeat(32),
  secure: false,
  customerOf: async (request) =>
    /(?:^|;\s*)test_customer=([^;]+)/.exec(request.headers.get("cookie") ?? "")?.[1] ?? null,
});

export interface TestDatabase {
  /** The database's URL (`file:…` or `postgresql://…`). */
  url: string;
  db: PrismaClient;
  adapter: PrismaServiceAdapter;
  close(): Promise<void>;
}

function conformanceHost({ db, adapter, close }: TestDatabase): ConformanceHost {
  return {
    servicePay: adapter.servicePay,
    statuses: testShopStatuses,
    orders: adapter.orders,
    tradeIns: adapter.tradeIns,
    tokens: adapter.tokens,
    identity: guests.sessionIdentity,
    shopper: adapter.shopper,
    async seedOpenCart() {
      const sessionId = randomUUID();
      await db.cart.create({
        data: { sessionId, lines: { create: [{ productId: PHONE.id, quantity: 1 }] } },
      });
      return {
        sessionId,
        details: {
          email: "ada@example.com",
          billing: CHECKOUT_ADDRESS,
          shipping: CHECKOUT_ADDRESS,
          shippingMethod: "standard",
        },
        owes: PHONE.price + PHONE.tax + 490,
        currency: "EUR",
      };
    },
    async issueSession(customerId) {
      const { session, cookie } = guests.replace();
      const signedIn = customerId ? `; test_customer=${customerId}` : "";
      return {
        cookie: `${cookie.name}=${cookie.value}${signedIn}`,
        identity: { ...session, ...(customerId ? { customerId } : {}) },
      };
    },
    async seedCustomer() {
      const customer: ShopCustomer = {
        id: randomUUID(),
        email: `ada-${randomUUID()}@example.com`,
        givenName: "Ada",
        familyName: "Lovelace",
        address: CHECKOUT_ADDRESS,
      };
      await db.customer.create({
        data: { ...customer, address: JSON.stringify(customer.address) },
      });
      return customer;
    },
    recordTradeInSeen: (sessionId, tradeInId) => adapter.noteTradeInSeen(sessionId, tradeInId),
    persistedTokenText: async () =>
      JSON.stringify([await db.serviceToken.findMany(), await db.lease.findMany()]),
    close,
  };
}

/** A fresh SQLite file with the shipped migration and `shopDdl` (the test shop's tables)
 *  applied, the test shop's client and the adapter over it. */
export function sqliteTestDatabase(shopDdl: string): TestDatabase {
  const dir = mkdtempSync(path.join(tmpdir(), "prisma-adapter-"));
  const file = path.join(dir, "test.db");
  const raw = new Database(file);
  raw.exec(shippedMigration("sqlite"));
  raw.exec(shopDdl);
  raw.close();
  const db = new PrismaClient({
    adapter: new PrismaBetterSQLite3({ url: `file:${file}`, timeout: 5000 }),
  });
  const adapter = sqliteAdapter({ db, shop: testShopCallbacks(db), sealer });
  return {
    url: `file:${file}`,
    db,
    adapter,
    async close() {
      await db.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const sqliteHost = (shopDdl: string) => async () =>
  conformanceHost(sqliteTestDatabase(shopDdl));

async function onPostgres(url: string, statements: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statements);
  } finally {
    await client.end();
  }
}

let databases = 0;

/** A fresh database on the cluster of `adminUrl` with the shipped migration and `shopDdl`
 *  applied, the test shop's client and the adapter over it; `close` drops it. */
export async function pgTestDatabase(adminUrl: string, shopDdl: string): Promise<TestDatabase> {
  databases += 1;
  const name = `prisma_adapter_${process.pid}_${databases}_${Date.now().toString(36)}`;
  await onPostgres(adminUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await onPostgres(url.toString(), shippedMigration("postgresql"));
  await onPostgres(url.toString(), shopDdl);
  // The two generated clients have the same models; the test shop's code is typed once.
  const db = new PgClient({
    adapter: new PrismaPg({ connectionString: url.toString() }),
  }) as unknown as PrismaClient;
  const adapter = pgAdapter({ db, shop: testShopCallbacks(db), sealer });
  return {
    url: url.toString(),
    db,
    adapter,
    async close() {
      await db.$disconnect();
      await onPostgres(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

export const pgHost = (adminUrl: string, shopDdl: string) => async () =>
  conformanceHost(await pgTestDatabase(adminUrl, shopDdl));
