import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/db/generated/client";
import type { StoredTokens } from "@/lib/service/shop-ports";
import { openTestDatabase } from "@/test-support/test-db";
import { createPrismaTokenStore } from "./token-store";

// Runs against a real database with the project's migrations (SQLite, or PostgreSQL with
// TEST_DATABASE=postgresql), so the store is checked against the actual ServiceToken table.
let db: PrismaClient;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ db, cleanup } = await openTestDatabase("token-store-"));
});

afterAll(() => cleanup());

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
