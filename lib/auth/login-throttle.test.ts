import { describe, expect, it } from "vitest";
import { setUpTestDb } from "@/test-support/test-db";
import { clientAddressFrom } from "./client-address";
import {
  ACCOUNT_POLICY,
  ADDRESS_POLICY,
  lockSeconds,
  loginKeys,
  throttledLogin,
} from "./login-throttle";

// Login throttling lives in the database: per account and per client address, a growing lock,
// a clear message, and no password check at all while locked.

const shop = setUpTestDb();
const wrong = async () => null;
const right = async () => "customer";

describe("login throttle", () => {
  it("locks for longer after each failure past the allowance, up to a cap", () => {
    const locks = [1, 4, 5, 6, 7, 30].map((n) => lockSeconds(n, ACCOUNT_POLICY));
    expect(locks).toEqual([0, 0, 30, 60, 120, 900]);
  });

  it("30 admin guesses: from the fifth on every attempt is refused, even the right password", async () => {
    const now = new Date("2026-11-22T10:00:00Z");
    const results = [];
    for (let i = 0; i < 30; i++) {
      results.push(await throttledLogin("admin", "admin@example.com", "10.0.0.1", wrong, now));
    }
    expect(results.slice(0, 4).every((r) => !r.ok && !r.locked)).toBe(true);
    expect(results.slice(4).every((r) => !r.ok && r.locked)).toBe(true);
    let checked = false;
    const during = await throttledLogin(
      "admin",
      "ADMIN@example.com",
      "10.0.0.9",
      async () => {
        checked = true;
        return "admin";
      },
      now,
    );
    expect(during).toMatchObject({ ok: false, locked: true });
    expect(checked).toBe(false);
    if (!during.ok)
      expect(during.message).toMatch(/Too many failed sign-in attempts.*try again in/);
    // Past the lock the right password works and clears the account's count.
    const later = new Date(now.getTime() + 16 * 60 * 1000);
    expect(await throttledLogin("admin", "admin@example.com", "10.0.0.9", right, later)).toEqual({
      ok: true,
      value: "customer",
    });
  });

  it("one address trying many accounts is locked too", async () => {
    const now = new Date("2026-11-22T11:00:00Z");
    const results = [];
    for (let i = 0; i < 21; i++) {
      results.push(await throttledLogin("shopper", `user${i}@example.com`, "10.0.0.2", wrong, now));
    }
    expect(results.at(18)).toMatchObject({ ok: false, locked: false });
    expect(results.at(19)).toMatchObject({ ok: false, locked: true });
    const other = await throttledLogin("shopper", "someone@example.com", "10.0.0.2", right, now);
    expect(other).toMatchObject({ ok: false, locked: true });
    // Another address is not affected.
    const elsewhere = await throttledLogin(
      "shopper",
      "someone@example.com",
      "10.0.0.3",
      right,
      now,
    );
    expect(elsewhere.ok).toBe(true);
  });

  it("counts concurrent failures exactly (one atomic increment each)", async () => {
    const now = new Date("2026-11-22T12:00:00Z");
    await Promise.all(
      Array.from({ length: 3 }, () =>
        throttledLogin("shopper", "race@example.com", "10.0.0.4", wrong, now),
      ),
    );
    const row = await shop.db.loginThrottle.findUnique({
      where: { key: loginKeys("shopper", "race@example.com", "10.0.0.4").account },
    });
    expect(row?.failures).toBe(3);
  });
});

describe("what anonymous login attempts store is bounded", () => {
  it("keys are 64 hex characters whatever was typed, and hold no email", () => {
    const keys = loginKeys("shopper", `${"a".repeat(200)}@example.com`, "x".repeat(64));
    expect(keys.account).toMatch(/^[0-9a-f]{64}$/);
    expect(keys.address).toMatch(/^[0-9a-f]{64}$/);
    expect(loginKeys("shopper", " A@example.com ", "1").account).toBe(
      loginKeys("shopper", "a@example.com", "1").account,
    );
  });

  it("a flood of 10,000 failed logins with new emails from one address, 100 at a time, stores 21 rows of 64-character keys", async () => {
    await shop.db.loginThrottle.deleteMany();
    const now = new Date("2027-01-01T10:00:00Z");
    let verified = 0;
    const guess = async () => {
      verified += 1;
      return null;
    };
    for (let batch = 0; batch < 100; batch++) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          throttledLogin("shopper", `flood${batch}-${i}@example.com`, "203.0.113.5", guess, now),
        ),
      );
    }
    const rows = await shop.db.loginThrottle.findMany({ select: { key: true } });
    // The address's free failures plus the one that locks it, each with its account row, and
    // the address's own row: attempts arriving together cannot slip past the lock being set,
    // and refused attempts store nothing and check no password.
    expect(verified).toBe(ADDRESS_POLICY.free + 1);
    expect(rows.length).toBe(ADDRESS_POLICY.free + 1 + 1);
    expect(rows.every((row) => row.key.length === 64)).toBe(true);
    // 10,000 requests are 10,000 database round trips (the lock check each refused one costs):
    // seconds of work on PostgreSQL, not a wait on any clock.
  }, 30_000);

  it("after a lock ends, one attempt of a burst is let through, then the address is locked longer", async () => {
    await shop.db.loginThrottle.deleteMany();
    const start = new Date("2027-01-01T12:00:00Z");
    for (let i = 0; i < ADDRESS_POLICY.free + 1; i++) {
      await throttledLogin("shopper", `burst${i}@example.com`, "203.0.113.8", wrong, start);
    }
    const after = new Date(start.getTime() + ADDRESS_POLICY.firstLockSeconds * 1000);
    let verified = 0;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        throttledLogin(
          "shopper",
          `late${i}@example.com`,
          "203.0.113.8",
          async () => {
            verified += 1;
            return null;
          },
          after,
        ),
      ),
    );
    expect(verified).toBe(1);
    expect(results.every((r) => !r.ok && r.locked)).toBe(true);
    const wait = await throttledLogin("shopper", "x@example.com", "203.0.113.8", right, after);
    expect(wait).toMatchObject({ ok: false, locked: true });
    if (!wait.ok) expect(wait.message).toMatch(/60 seconds/);
  });

  it("rows an hour past their last failure are pruned by the next failure", async () => {
    await shop.db.loginThrottle.deleteMany();
    const start = new Date("2027-01-02T10:00:00Z");
    for (let i = 0; i < 5; i++) {
      await throttledLogin("shopper", `old${i}@example.com`, "203.0.113.6", wrong, start);
    }
    expect(await shop.db.loginThrottle.count()).toBe(6);
    const later = new Date(start.getTime() + 61 * 60 * 1000);
    await throttledLogin("shopper", "new@example.com", "203.0.113.7", wrong, later);
    const keys = (await shop.db.loginThrottle.findMany({ select: { key: true } })).map(
      (r) => r.key,
    );
    const fresh = loginKeys("shopper", "new@example.com", "203.0.113.7");
    expect(keys.sort()).toEqual([fresh.account, fresh.address].sort());
  });
});

describe("a password spray from one address", () => {
  // Each request rotates the X-Forwarded-For it writes itself; the proxies append after it.
  const spray = async (hops: number, header: (i: number) => string, at: Date) => {
    const results = [];
    for (let i = 0; i < 30; i++) {
      const address = clientAddressFrom(header(i), hops);
      results.push(await throttledLogin("shopper", `spray${i}@example.com`, address, wrong, at));
    }
    return results;
  };

  it("with no proxy (the default) is locked by the address `next start` wrote from the socket", async () => {
    const results = await spray(0, () => "198.51.100.30", new Date("2027-01-03T09:00:00Z"));
    expect(results.at(ADDRESS_POLICY.free - 1)).toMatchObject({ locked: false });
    expect(results.slice(ADDRESS_POLICY.free).every((r) => !r.ok && r.locked)).toBe(true);
  });

  it("behind one proxy (nginx appends the address it saw) is locked after the address's allowance", async () => {
    const results = await spray(
      1,
      (i) => `10.9.${i}.1, 198.51.100.20`,
      new Date("2027-01-03T10:00:00Z"),
    );
    expect(results.at(ADDRESS_POLICY.free - 1)).toMatchObject({ locked: false });
    expect(results.slice(ADDRESS_POLICY.free).every((r) => !r.ok && r.locked)).toBe(true);
  });

  it("behind two proxies (a CDN, then nginx) is locked too, and other clients are not", async () => {
    const at = new Date("2027-01-03T11:00:00Z");
    const results = await spray(2, (i) => `10.9.${i}.1, 198.51.100.21, 192.0.2.1`, at);
    expect(results.slice(ADDRESS_POLICY.free).every((r) => !r.ok && r.locked)).toBe(true);
    // Another client through the same CDN edge is not locked out with the sprayer.
    const address = clientAddressFrom("198.51.100.99, 192.0.2.1", 2);
    expect((await throttledLogin("shopper", "ok@example.com", address, right, at)).ok).toBe(true);
  });
});
