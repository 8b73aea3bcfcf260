// SQLite's locks as this adapter takes them (sqlite.ts): every transaction BEGIN IMMEDIATE on
// Kysely's one connection, held for the whole transaction (the write lock from the first read:
// SQLite's FOR UPDATE), and lockOrders taking the write lock inside a shop's own deferred
// transaction. Seen from a second connection to the same file, as another process would be.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { sqliteTransaction } from "../sqlite.js";
import { sqliteTestDatabase } from "../test-support/host.js";

/** Yields to every other task once (never a wait on the clock). */
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The test database in a file, and a second connection to it that never waits for a lock. */
async function twoConnections() {
  const dir = mkdtempSync(path.join(tmpdir(), "kysely-adapter-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const first = await sqliteTestDatabase(path.join(dir, "shop.db"));
  cleanups.push(() => first.close());
  const connection = new Database(path.join(dir, "shop.db"));
  connection.pragma("busy_timeout = 0");
  const second = new Kysely<unknown>({ dialect: new SqliteDialect({ database: connection }) });
  cleanups.push(() => second.destroy());
  /** What a write of the second connection meets now. */
  const secondWrites = () =>
    sqliteTransaction(second, (q) => sql`DELETE FROM service_leases`.execute(q)).then(
      () => "written",
      (error: unknown) => String(error),
    );
  return { first, secondWrites };
}

describe("the SQLite adapter's locks", () => {
  it("50 transactions at once, each reading then writing across awaits, lose no write", async () => {
    const { db, close } = await sqliteTestDatabase();
    cleanups.push(close);
    await sql`INSERT INTO service_leases (name, holder, expires_at) VALUES ('n', '0', 0)`.execute(
      db,
    );
    await Promise.all(
      Array.from({ length: 50 }, () =>
        sqliteTransaction(db, async (q) => {
          const { rows } = await sql<{ holder: string }>`SELECT holder FROM service_leases`.execute(
            q,
          );
          await yieldTurn();
          await sql`UPDATE service_leases SET holder = ${String(Number(rows[0]?.holder) + 1)}`.execute(
            q,
          );
        }),
      ),
    );
    const { rows } = await sql<{ holder: string }>`SELECT holder FROM service_leases`.execute(db);
    expect(rows[0]?.holder).toBe("50");
  });

  it("what the process sends while a transaction is open waits for it, so the transaction's rollback leaves it written", async () => {
    const { adapter, close } = await sqliteTestDatabase();
    cleanups.push(close);
    const failed = adapter.servicePay.transaction(async (tx) => {
      expect(await tx.loadCheckout("none")).toBeNull();
      // Not awaited here: on one connection it would otherwise run inside this transaction.
      const seen = adapter.noteTradeInSeen("session", "trade-in");
      await yieldTurn();
      throw Object.assign(new Error("rolled back"), { seen });
    });
    const error = await failed.catch((e: Error & { seen: Promise<void> }) => e);
    await error.seen;
    expect(await adapter.tradeIns.tradeInSeen("session")).toBe("trade-in");
  });

  it("a transaction that has only read already holds the write lock (BEGIN IMMEDIATE): another connection writes after it commits", async () => {
    const { first, secondWrites } = await twoConnections();
    await first.adapter.servicePay.transaction(async (tx) => {
      expect(await tx.loadCheckout("none")).toBeNull();
      expect(await secondWrites()).toMatch(/database is locked|SQLITE_BUSY/i);
    });
    expect(await secondWrites()).toBe("written");
  });

  it("lockOrders inside the shop's own deferred transaction takes the write lock before it reads", async () => {
    const { first, secondWrites } = await twoConnections();
    await first.db.transaction().execute(async (trx) => {
      expect(await first.adapter.lockOrders(trx, { id: "none" })).toEqual([]);
      expect(await secondWrites()).toMatch(/database is locked|SQLITE_BUSY/i);
    });
    expect(await secondWrites()).toBe("written");
  });
});
