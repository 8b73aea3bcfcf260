import type { StoredTokens } from "@service-integration/kit";
import { createTokenSealer } from "@service-integration/kit/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDbClient } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { openTestDatabase, testPostgresAdminUrl } from "@/test-support/test-db";
import { createPrismaTokenStore } from "./token-store";

const sealer = createTokenSealer("test-token-key-at-least-32-characters");

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
  it("saves, replaces and shares the default row", async () => {
    const store = createPrismaTokenStore(db, sealer);
    expect(await store.load()).toBeNull();
    await store.save(tokens);
    expect(await store.load()).toEqual(tokens);
    await store.save({ ...tokens, accessToken: "a2" });
    // A second instance (another store object on the same database) sees the same row.
    expect((await createPrismaTokenStore(db, sealer).load())?.accessToken).toBe("a2");
    expect(await db.serviceToken.count()).toBe(1);
  });

  it("stores the tokens and the user id sealed: the table holds none of them in plain text", async () => {
    const store = createPrismaTokenStore(db, sealer, "sealed");
    const secret = {
      ...tokens,
      accessToken: "at-plain-1",
      refreshToken: "rt-plain-1",
      userId: "uid-plain-1",
    };
    await store.save(secret);
    const row = await db.serviceToken.findUniqueOrThrow({ where: { id: "sealed" } });
    const stored = JSON.stringify(row);
    for (const plain of ["at-plain-1", "rt-plain-1", "uid-plain-1"])
      expect(stored).not.toContain(plain);
    expect(await store.load()).toEqual(secret);
  });

  it("reads a row it cannot open (another key, a plain-text row, a value moved between rows) as no tokens", async () => {
    const store = createPrismaTokenStore(db, sealer, "rekeyed");
    await store.save(tokens);
    const otherKey = createTokenSealer("another-token-key-at-least-32-chars!");
    expect(await createPrismaTokenStore(db, otherKey, "rekeyed").load()).toBeNull();
    // A row written in plain text (before tokens were sealed) is not trusted either.
    await db.serviceToken.update({ where: { id: "rekeyed" }, data: { accessToken: "plain" } });
    expect(await store.load()).toBeNull();
    // A sealed value copied from another row does not open in this one.
    const mover = createPrismaTokenStore(db, sealer, "mover");
    await mover.save(tokens);
    const moved = await db.serviceToken.findUniqueOrThrow({ where: { id: "mover" } });
    await db.serviceToken.update({
      where: { id: "rekeyed" },
      data: {
        accessToken: moved.accessToken,
        refreshToken: moved.refreshToken,
        userId: moved.userId,
      },
    });
    expect(await store.load()).toBeNull();
    // Saving again under the current key makes the row usable.
    await store.save(tokens);
    expect(await store.load()).toEqual(tokens);
  });
});

describe("the renewal lease", () => {
  it("is held by one holder until released or expired", async () => {
    const store = createPrismaTokenStore(db, sealer, "lease-basics");
    const other = createPrismaTokenStore(otherInstance, sealer, "lease-basics");
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
    const store = createPrismaTokenStore(db, sealer, "lease-expiry");
    expect(await store.acquireRenewalLease("dead", 1)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(
      await createPrismaTokenStore(otherInstance, sealer, "lease-expiry").acquireRenewalLease(
        "alive",
        30_000,
      ),
    ).toBe(true);
  });

  it("goes to exactly one of many holders asking at once from two instances", async () => {
    const attempts = Array.from({ length: 20 }, (_, i) =>
      createPrismaTokenStore(i % 2 ? db : otherInstance, sealer, "lease-race").acquireRenewalLease(
        `holder-${i}`,
        30_000,
      ),
    );
    const won = (await Promise.all(attempts)).filter(Boolean);
    expect(won).toHaveLength(1);
  });
});
