import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { createTokenSealer } from "@service-integration/kit/server";
import { type ConformanceHost, testShopHost } from "@service-integration/kit/testing";
import Database from "better-sqlite3";
import pg from "pg";
import { MIGRATIONS } from "../../scripts/prisma-tools.mjs";
import type { PrismaServiceAdapter } from "../core.js";
import { prismaServiceAdapter as pgAdapter } from "../pg.js";
import { prismaServiceAdapter as sqliteAdapter } from "../sqlite.js";
import { PrismaClient as PgClient } from "./generated/postgresql/client.js";
import { PrismaClient } from "./generated/sqlite/client.js";
import { PHONE, testShopCallbacks } from "./shop-callbacks.js";

export const sealer = createTokenSealer("k".repeat(32));
const packageRoot = path.resolve(import.meta.dirname, "../..");

/** The shipped migrations of `provider`, oldest first, in one script. */
export function shippedMigration(provider: "sqlite" | "postgresql"): string {
  return MIGRATIONS.map((name) =>
    readFileSync(
      path.join(packageRoot, "prisma", provider, "migrations", name, "migration.sql"),
      "utf8",
    ),
  ).join("\n");
}

export interface TestDatabase {
  /** The database's URL (`file:…` or `postgresql://…`). */
  url: string;
  db: PrismaClient;
  adapter: PrismaServiceAdapter;
  close(): Promise<void>;
}

function conformanceHost({ db, adapter, close }: TestDatabase): ConformanceHost {
  return testShopHost(adapter, {
    async insertOpenCart(sessionId) {
      await db.cart.create({
        data: { sessionId, lines: { create: [{ productId: PHONE.id, quantity: 1 }] } },
      });
    },
    async insertCustomer(customer) {
      await db.customer.create({
        data: { ...customer, address: JSON.stringify(customer.address) },
      });
    },
    persistedTokenText: async () =>
      JSON.stringify([await db.serviceToken.findMany(), await db.lease.findMany()]),
    close,
  });
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
