// The adapter's own checks on SQLite, and its transaction queue: Drizzle's better-sqlite3
// driver cannot await inside db.transaction, so the adapter runs BEGIN IMMEDIATE … COMMIT on
// the connection itself and queues the connection's work (sqlite.ts, the kit's onSqliteConnection).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { describe, expect, it } from "vitest";
import { drizzleServiceAdapter, sqliteTransaction } from "../sqlite.js";
import { adapterChecks } from "../test-support/adapter-checks.js";
import { sealer, sqliteTestDatabase, sqliteUnderTest } from "../test-support/host.js";
import { testShopCallbacks } from "../test-support/shop-callbacks.js";
import { type pgShop, sqliteShop } from "../test-support/shop-tables.js";
import { serviceLeases } from "./schema.js";

adapterChecks("SQLite", sqliteUnderTest);

/** Yields to every other task once (never a wait on the clock). */
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("the SQLite transaction queue", () => {
  it("50 transactions at once, each reading then writing across awaits, lose no write", async () => {
    const { client, db } = await sqliteTestDatabase();
    try {
      const at = new Date(0);
      await sqliteTransaction(db, (q) =>
        q.insert(serviceLeases).values({ name: "counter", holder: "0", expiresAt: at }),
      );
      await Promise.all(
        Array.from({ length: 50 }, () =>
          sqliteTransaction(db, async (q) => {
            const [row] = await q.select().from(serviceLeases);
            await yieldTurn();
            await q.update(serviceLeases).set({ holder: String(Number(row?.holder) + 1) });
          }),
        ),
      );
      const [row] = await db.select().from(serviceLeases);
      expect(row?.holder).toBe("50");
    } finally {
      client.close();
    }
  });

  it("a statement sent while a transaction is open runs after it, so a rollback does not take it along", async () => {
    const { client, adapter } = await sqliteTestDatabase();
    try {
      const boom = new Error("rolled back");
      let lease: Promise<boolean> | undefined;
      await expect(
        adapter.servicePay.transaction(async (tx) => {
          await tx.dropCheckout("none");
          // Sent from inside (not awaited: it is queued behind this transaction).
          lease = adapter.tokens.acquireRenewalLease("holder", 30_000);
          await yieldTurn();
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(await lease).toBe(true);
      expect(await adapter.tokens.acquireRenewalLease("another", 30_000), "still held").toBe(false);
    } finally {
      client.close();
    }
  });

  it("between two connections (two instances) the database's write lock decides, not the queue", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "drizzle-adapter-"));
    const file = path.join(dir, "shop.db");
    const { client: first } = await sqliteTestDatabase(file);
    const second = new Database(file);
    try {
      // No waiting on the other connection's lock: busy at once.
      second.pragma("busy_timeout = 0");
      const open = (connection: Database.Database) => {
        const db = drizzle(connection);
        return drizzleServiceAdapter({
          db,
          orders: sqliteShop.orders,
          shop: testShopCallbacks(sqliteShop as unknown as typeof pgShop, (fn) =>
            sqliteTransaction(db, fn),
          ),
          sealer,
        });
      };
      const one = open(first);
      const two = open(second);
      await one.servicePay.transaction(async (tx) => {
        await tx.dropCheckout("none");
        const other = await two.servicePay
          .transaction((t2) => t2.dropCheckout("none"))
          .catch((error: unknown) => error);
        expect(String(other)).toMatch(/database is locked|SQLITE_BUSY/i);
      });
      // Once the first has committed, the second connection writes.
      await two.servicePay.transaction((t2) => t2.dropCheckout("none"));
    } finally {
      first.close();
      second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
