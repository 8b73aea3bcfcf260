import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { createTokenSealer } from "@service-integration/kit/server";
import {
  type CheckHost,
  type ConformanceHost,
  EMPTY_POSTGRES_TABLES,
  emptySqliteDatabase,
  oneDatabasePerSuite,
  testShopHost,
} from "@service-integration/kit/testing";
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

/** A new SQLite file (in a new folder) with the shipped migration and `shopDdl` applied. */
function sqliteFile(shopDdl: string): { dir: string; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "prisma-adapter-"));
  const file = path.join(dir, "test.db");
  const raw = new Database(file);
  raw.exec(shippedMigration("sqlite"));
  raw.exec(shopDdl);
  raw.close();
  return { dir, file };
}

/** The test shop's client on the SQLite file `file` and the adapter over it. */
function sqliteClientOn(file: string): Omit<TestDatabase, "close"> {
  const db = new PrismaClient({
    adapter: new PrismaBetterSQLite3({ url: `file:${file}`, timeout: 5000 }),
  });
  return {
    url: `file:${file}`,
    db,
    adapter: sqliteAdapter({ db, shop: testShopCallbacks(db), sealer }),
  };
}

/** One SQLite file for a test file, emptied between checks, each check with `host` over a
 *  client of its own (the kit's oneDatabasePerSuite). */
function sqliteSuite<Host extends CheckHost>(shopDdl: string, host: (t: TestDatabase) => Host) {
  return oneDatabasePerSuite({
    open: () => sqliteFile(shopDdl),
    empty: ({ file }) => {
      const raw = new Database(file);
      try {
        emptySqliteDatabase(raw);
      } finally {
        raw.close();
      }
    },
    dispose: ({ dir }) => rmSync(dir, { recursive: true, force: true }),
    host: ({ file }) => {
      const client = sqliteClientOn(file);
      return host({ ...client, close: () => client.db.$disconnect() });
    },
  });
}

/** The conformance suite's hosts on SQLite: one file for the test file, emptied between checks. */
export const sqliteHost = (shopDdl: string) => sqliteSuite(shopDdl, conformanceHost);

/** The adapter's own checks' databases on SQLite: one file for the test file, emptied between
 *  checks (a check sees no row of another), each check on a client of its own. */
export const sqliteTestDatabases = (shopDdl: string) => sqliteSuite(shopDdl, (t) => t);

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
 *  applied: its URL, `empty` (every table emptied, sequences restarted, in one statement) and
 *  `drop`. */
async function pgDatabase(adminUrl: string, shopDdl: string) {
  databases += 1;
  const name = `prisma_adapter_${process.pid}_${databases}_${Date.now().toString(36)}`;
  await onPostgres(adminUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await onPostgres(url.toString(), shippedMigration("postgresql"));
  await onPostgres(url.toString(), shopDdl);
  return {
    url: url.toString(),
    empty: () => onPostgres(url.toString(), EMPTY_POSTGRES_TABLES),
    drop: () => onPostgres(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** The test shop's client on the PostgreSQL database at `url` and the adapter over it. */
function pgClientOn(url: string): Omit<TestDatabase, "close"> {
  // The two generated clients have the same models; the test shop's code is typed once.
  const db = new PgClient({
    adapter: new PrismaPg({ connectionString: url }),
  }) as unknown as PrismaClient;
  return { url, db, adapter: pgAdapter({ db, shop: testShopCallbacks(db), sealer }) };
}

/** One PostgreSQL database for a test file, emptied between checks, each check with `host`
 *  over a client of its own (the kit's oneDatabasePerSuite). */
function pgSuite<Host extends CheckHost>(
  adminUrl: string,
  shopDdl: string,
  host: (t: TestDatabase) => Host,
) {
  return oneDatabasePerSuite({
    open: () => pgDatabase(adminUrl, shopDdl),
    empty: (database) => database.empty(),
    dispose: (database) => database.drop(),
    host: (database) => {
      const client = pgClientOn(database.url);
      return host({ ...client, close: () => client.db.$disconnect() });
    },
  });
}

/** The conformance suite's hosts on PostgreSQL: one database for the file, emptied between
 *  checks. */
export const pgHost = (adminUrl: string, shopDdl: string) =>
  pgSuite(adminUrl, shopDdl, conformanceHost);

/** The adapter's own checks' databases on PostgreSQL: one database for the test file, emptied
 *  between checks (a check sees no row of another), each check on a client of its own. */
export const pgTestDatabases = (adminUrl: string, shopDdl: string) =>
  pgSuite(adminUrl, shopDdl, (t) => t);
