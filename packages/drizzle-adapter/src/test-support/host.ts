// The conformance host of each dialect: a fresh database with the integration's tables and the
// test shop's, the adapter over it, and the two seeding hooks the suite asks for.
import { randomUUID } from "node:crypto";
import { createTokenSealer } from "@service-integration/kit/server";
import {
  type CheckHost,
  type ConformanceHost,
  oneDatabasePerSuite,
  type TestShopWrites,
  testCheckout,
  testShopHost,
} from "@service-integration/kit/testing";
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Builder, DrizzleServiceAdapter } from "../core.js";
import { serviceSchema as pgSchema } from "../pg/schema.js";
import { drizzleServiceAdapter as pgAdapter } from "../pg.js";
import { serviceSchema as sqliteSchema } from "../sqlite/schema.js";
import { drizzleServiceAdapter as sqliteAdapter, sqliteTransaction } from "../sqlite.js";
import { freshPostgresDatabase, freshSqliteDatabase, pgDdl, sqliteDdl } from "../testing.js";
import type { AdapterUnderTest } from "./adapter-checks.js";
import { PHONE, testShopCallbacks } from "./shop-callbacks.js";
import { pgShop, sqliteShop } from "./shop-tables.js";

export const sealer = createTokenSealer("k".repeat(32));

/** An open cart with one phone for session `sessionId`. */
async function seedCart(q: Builder, tables: typeof pgShop, sessionId: string = randomUUID()) {
  const cartId = randomUUID();
  await q.insert(tables.carts).values({ id: cartId, sessionId, createdAt: new Date() });
  await q.insert(tables.cartLines).values({ cartId, productId: PHONE.id, quantity: 1 });
  return testCheckout(sessionId);
}

function conformanceHost(
  adapter: DrizzleServiceAdapter,
  onShop: <T>(fn: (q: Builder) => Promise<T>) => Promise<T>,
  tables: typeof pgShop,
  hooks: Pick<TestShopWrites, "persistedTokenText" | "close">,
): ConformanceHost {
  return testShopHost(adapter, {
    insertOpenCart: async (sessionId) => {
      await onShop((q) => seedCart(q, tables, sessionId));
    },
    insertCustomer: (customer) =>
      onShop((q) =>
        q
          .insert(tables.customers)
          .values({ ...customer, address: JSON.stringify(customer.address) }),
      ),
    ...hooks,
  });
}

let sqliteStatements: Promise<string[]> | undefined;

/** A fresh SQLite database (in memory, or the new file `filename`) with every table, and the
 *  adapter over it. */
export async function sqliteTestDatabase(filename = ":memory:") {
  sqliteStatements ??= sqliteDdl({ ...sqliteSchema, ...sqliteShop });
  const client = await freshSqliteDatabase(await sqliteStatements, filename);
  const db = drizzleSqlite(client);
  const adapter = sqliteAdapter({
    db,
    orders: sqliteShop.orders,
    shop: testShopCallbacks(sqliteShop as unknown as typeof pgShop, (fn) =>
      sqliteTransaction(db, fn),
    ),
    sealer,
  });
  return { client, db, adapter };
}

export async function sqliteUnderTest(): Promise<AdapterUnderTest> {
  const { client, db, adapter } = await sqliteTestDatabase();
  const tables = sqliteShop as unknown as typeof pgShop;
  return {
    adapter,
    seedOpenCart: () => sqliteTransaction(db, (q) => seedCart(q, tables)),
    onShop: (fn) => sqliteTransaction(db, (q) => fn(q, tables)),
    close: async () => {
      client.close();
    },
  };
}

export async function sqliteHost(): Promise<ConformanceHost> {
  const { client, db, adapter } = await sqliteTestDatabase();
  const tables = sqliteShop as unknown as typeof pgShop;
  return conformanceHost(adapter, (fn) => sqliteTransaction(db, fn), tables, {
    persistedTokenText: async () =>
      JSON.stringify([
        client.prepare("SELECT * FROM service_tokens").all(),
        client.prepare("SELECT * FROM service_leases").all(),
      ]),
    close: async () => {
      client.close();
    },
  });
}

let pgStatements: Promise<string[]> | undefined;

/** The adapter over the PostgreSQL database at `url`, on a pool of its own. */
function pgAdapterOn(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const db = drizzlePg(pool);
  const adapter = pgAdapter({
    db,
    orders: pgShop.orders,
    shop: testShopCallbacks(pgShop, (fn) => fn(db)),
    sealer,
  });
  return { pool, db, adapter };
}

/** A fresh PostgreSQL database on the cluster of `adminUrl` (the test step's own cluster,
 *  TEST_POSTGRES_URL) with every table (freshPostgresDatabase: `empty`, `drop`). */
async function pgDatabase(adminUrl: string) {
  pgStatements ??= pgDdl({ ...pgSchema, ...pgShop });
  return freshPostgresDatabase(adminUrl, await pgStatements);
}

/** One PostgreSQL database on the cluster of `adminUrl` (the test step's own cluster,
 *  TEST_POSTGRES_URL) for a test file, emptied between checks, each check with `host` over the
 *  adapter on a pool of its own (the kit's oneDatabasePerSuite). */
function pgSuite<Host extends CheckHost>(
  adminUrl: string,
  host: (over: ReturnType<typeof pgAdapterOn>) => Host,
) {
  return oneDatabasePerSuite({
    open: () => pgDatabase(adminUrl),
    empty: (database) => database.empty(),
    dispose: (database) => database.drop(),
    host: (database) => host(pgAdapterOn(database.url)),
  });
}

/** The row-lock checks' databases: one for the test file, emptied between checks, each check
 *  with the adapter on a pool of its own (`close` ends it). */
export const pgTestDatabases = (adminUrl: string) =>
  pgSuite(adminUrl, (over) => ({ ...over, close: () => over.pool.end() }));

/** The adapter's own checks on PostgreSQL: one database for the test file, emptied between
 *  checks (a check sees no row of another), each check on a pool of its own. */
export const pgUnderTest = (adminUrl: string) =>
  pgSuite(
    adminUrl,
    ({ pool, db, adapter }): AdapterUnderTest => ({
      adapter,
      seedOpenCart: () => db.transaction((q) => seedCart(q, pgShop)),
      onShop: (fn) => db.transaction((q) => fn(q, pgShop)),
      close: () => pool.end(),
    }),
  );

/** The conformance suite's hosts on PostgreSQL: one database for the file, emptied between
 *  checks, each check on a pool of its own. */
export const pgHost = (adminUrl: string) =>
  pgSuite(adminUrl, ({ pool, db, adapter }) =>
    conformanceHost(adapter, (fn) => db.transaction(fn), pgShop, {
      persistedTokenText: async () =>
        JSON.stringify([
          (await pool.query("SELECT * FROM service_tokens")).rows,
          (await pool.query("SELECT * FROM service_leases")).rows,
        ]),
      close: () => pool.end(),
    }),
  );
