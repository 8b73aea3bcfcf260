// The conformance host of each database: a fresh database with the integration's tables and the
// test shop's, the shop's Kysely database (CamelCasePlugin, as many shops read theirs) with the
// adapter over it, and the few writes the kit's test shop asks for.
import { randomUUID } from "node:crypto";
import { createTokenSealer } from "@service-integration/kit/server";
import {
  type ConformanceHost,
  oneDatabasePerSuite,
  testShopHost,
} from "@service-integration/kit/testing";
import { CamelCasePlugin, type Dialect, Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { KyselyServiceAdapter } from "../core.js";
import { kyselyServiceAdapter as pgAdapter } from "../pg.js";
import { kyselyServiceAdapter as sqliteAdapter } from "../sqlite.js";
import { freshPostgresDatabase, freshSqliteDatabase } from "../testing.js";
import { type ShopDb, testShopCallbacks } from "./shop-callbacks.js";
import { testDatabaseSql } from "./shop-tables.js";

export const sealer = createTokenSealer("k".repeat(32));

export interface TestDatabase {
  db: ShopDb;
  adapter: KyselyServiceAdapter<ShopDb extends Kysely<infer DB> ? DB : never>;
  /** Closes the connections and removes the database. */
  close(): Promise<void>;
}

export const shopDb = (dialect: Dialect): ShopDb =>
  new Kysely({ dialect, plugins: [new CamelCasePlugin()] });

/** A fresh SQLite database (in memory, or the new file `filename`) with every table, the adapter
 *  over it. */
export async function sqliteTestDatabase(filename = ":memory:"): Promise<TestDatabase> {
  const connection = await freshSqliteDatabase(testDatabaseSql.sqlite, filename);
  const db = shopDb(new SqliteDialect({ database: connection }));
  const shop = testShopCallbacks(db, (at) => at.getTime());
  return { db, adapter: sqliteAdapter({ db, shop, sealer }), close: () => db.destroy() };
}

/** The adapter's own checks' databases on PostgreSQL: one database on the cluster of
 *  `adminUrl` for the test file, emptied between checks (a check sees no row of another), each
 *  check on a pool of its own (the kit's oneDatabasePerSuite). */
export function pgTestDatabases(adminUrl: string) {
  return oneDatabasePerSuite({
    open: () => freshPostgresDatabase(adminUrl, testDatabaseSql.postgresql),
    empty: (database) => database.empty(),
    dispose: (database) => database.drop(),
    host: (database) => pgAdapterOn(database.url),
  });
}

/** The adapter over the PostgreSQL database at `url`, on a pool of its own; `close` ends it. */
function pgAdapterOn(url: string): TestDatabase {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // @types/pg 8.6.1 (this repository's pin) lacks Pool.options, which a pg Pool has at run time
  // and Kysely 0.29's PostgresPool type names.
  const db = shopDb(new PostgresDialect({ pool: pool as typeof pool & { options: object } }));
  const shop = testShopCallbacks(db, (at) => at);
  return { db, adapter: pgAdapter({ db, shop, sealer }), close: () => db.destroy() };
}

/** The conformance suite's hosts on PostgreSQL: one database for the file, emptied between
 *  checks, each check on a pool of its own (the kit's oneDatabasePerSuite). */
export function pgConformanceHost(adminUrl: string) {
  return oneDatabasePerSuite({
    open: () => freshPostgresDatabase(adminUrl, testDatabaseSql.postgresql),
    empty: (database) => database.empty(),
    dispose: (database) => database.drop(),
    host: (database) => hostOver(pgAdapterOn(database.url)),
  });
}

/** The kit's test shop over a test database: the suite's ConformanceHost. */
export function conformanceHost(open: () => Promise<TestDatabase>) {
  return async (): Promise<ConformanceHost> => hostOver(await open());
}

function hostOver({ db, adapter, close }: TestDatabase): ConformanceHost {
  return testShopHost(adapter, {
    async insertOpenCart(sessionId) {
      const cartId = randomUUID();
      await db.insertInto("carts").values({ id: cartId, sessionId }).execute();
      await db
        .insertInto("cartLines")
        .values({ cartId, productId: "phone", quantity: 1 })
        .execute();
    },
    async insertCustomer(customer) {
      const address = JSON.stringify(customer.address);
      await db
        .insertInto("customers")
        .values({ ...customer, address })
        .execute();
    },
    persistedTokenText: async () =>
      JSON.stringify([
        await db
          .selectFrom("serviceTokens" as never)
          .selectAll()
          .execute(),
        await db
          .selectFrom("serviceLeases" as never)
          .selectAll()
          .execute(),
      ]),
    close,
  });
}
