import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDbClient } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import type { StoredTokens } from "@/lib/service/shop-ports";
import { openTestDatabase, testPostgresAdminUrl } from "@/test-support/test-db";
import { createPrismaTokenStore } from "./token-store";

// Runs against a real database with the project's migrations (SQLite, or PostgreSQL with
// TEST_DATABASE=postgresql), so the store is checked against the actual ServiceToken table.
let db: PrismaClient;
/** A second client on the same database: another shop instance. SQLite is the embedded,
 *  one-instance database (one client per process), so there it is the same client. */
let otherInstance: PrismaClient;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  let url: string;
  ({ db, url, cleanup } = await openTestDatabase("token-store-"));
  otherInstance = testPostgresAdminUrl() ? createDbClient(url) : db;
});

afterAll(async () => {
  if (otherInstance !== db) await otherInstance.$disconnect();
  await cleanup();
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

describe("the renewal lease", () => {
  it("is held by one holder until released or expired", async () => {
    const store = createPrismaTokenStore(db, "lease-basics");
    const other = createPrismaTokenStore(otherInstance, "lease-basics");
    expect(await store.acquireRenewalLease("one", 30_000)).toBe(true);
    expect(await other.acquireRenewalLease("two", 30_000)).toBe(false);
    // Its holder may take it again (extends it); the other still may not.
    expect(await store.acquireRenewalLease("one", 30_000)).toBe(true);
    expect(await other.acquireRenewalLease("two", 30_000)).toBe(false);
    // Releasing someone else's lease does nothing.
    await other.releaseRenewalLease("two");
    expect(await other.acquireRenewalLease("two", 30_000)).toBe(false);
    await store.releaseRenewalLease("one");
    expect(await other.acquireRenewalLease("two", 30_000)).toBe(true);
  });

  it("passes to another holder once it expired (its holder died)", async () => {
    const store = createPrismaTokenStore(db, "lease-expiry");
    expect(await store.acquireRenewalLease("dead", 1)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(
      await createPrismaTokenStore(otherInstance, "lease-expiry").acquireRenewalLease(
        "alive",
        30_000,
      ),
    ).toBe(true);
  });

  it("goes to exactly one of many holders asking at once from two instances", async () => {
    const attempts = Array.from({ length: 20 }, (_, i) =>
      createPrismaTokenStore(i % 2 ? db : otherInstance, "lease-race").acquireRenewalLease(
        `holder-${i}`,
        30_000,
      ),
    );
    const won = (await Promise.all(attempts)).filter(Boolean);
    expect(won).toHaveLength(1);
  });
});
