import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/db/generated/client";
import type { StoredTokens } from "@/lib/service/shop-ports";
import { createPrismaTokenStore } from "./token-store";

// Runs against a real in-memory SQLite with the project's migrations, so the store is checked
// against the actual ServiceToken table, not a mock.
const migrationsDir = path.resolve(import.meta.dirname, "../../prisma/migrations");
let db: PrismaClient;

beforeAll(async () => {
  db = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: ":memory:" }) });
  const folders = readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  for (const folder of folders) {
    const sql = readFileSync(path.join(migrationsDir, folder, "migration.sql"), "utf8");
    for (const statement of sql.split(/;\s*(?:\n|$)/)) {
      const withoutComments = statement.replace(/^--.*$/gm, "").trim();
      if (withoutComments) await db.$executeRawUnsafe(withoutComments);
    }
  }
});

afterAll(async () => {
  await db.$disconnect();
});

const tokens: StoredTokens = {
  accessToken: "a1",
  refreshToken: "r1",
  userId: "u",
  merchantId: "m",
  scope: "core payments valuations updates",
  accessExpiresAt: new Date("2026-01-01T13:00:00.000Z"),
};

describe("createPrismaTokenStore", () => {
  it("saves, replaces, shares and clears the default row", async () => {
    const store = createPrismaTokenStore(db);
    expect(await store.load()).toBeNull();
    await store.save(tokens);
    expect(await store.load()).toEqual(tokens);
    await store.save({ ...tokens, accessToken: "a2" });
    // A second instance (another store object on the same database) sees the same row.
    expect((await createPrismaTokenStore(db).load())?.accessToken).toBe("a2");
    expect(await db.serviceToken.count()).toBe(1);
    await store.clear();
    expect(await store.load()).toBeNull();
  });
});
