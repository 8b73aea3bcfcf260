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

  it("a flood of 10,000 failed logins, each a new email from a new address, stays within the cap, and an account's own lock still holds", async () => {
    await shop.db.loginThrottle.deleteMany();
    // The cap is LOGIN_THROTTLE_MAX_ROWS for every login; a small one here reaches it in about
    // a hundred attempts instead of thousands, through the same code.
    const cap = 400;
    const now = new Date("2027-01-01T14:00:00Z");
    const verified = new Set<number>();
    const guess = (n: number) => async () => {
      verified.add(n);
      return null;
    };
    // As a client reaching `next start` directly with TRUSTED_PROXY_HOPS=0 writes a new
    // X-Forwarded-For each time (docs/decisions/client-address.md).
    const address = (n: number) => clientAddressFrom(`198.18.${n >> 8}.${n & 255}`, 0);
    const login = (email: string, n: number, verify: () => Promise<string | null>, at = now) =>
      throttledLogin("shopper", email, address(n), verify, at, cap);
    const results = [];
    for (let batch = 0; batch < 100; batch++) {
      results.push(
        ...(await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            login(`wave${batch}-${i}@example.com`, batch * 100 + i, guess(batch * 100 + i)),
          ),
        )),
      );
    }
    const rows = await shop.db.loginThrottle.count();
    expect(rows).toBeLessThanOrEqual(cap);
    // New addresses had rows of their own up to half the cap, then shared the overflow bucket,
    // which its allowance locked: the flood was throttled as a whole.
    // Every other attempt was refused before its password was checked.
    expect(verified.size).toBeLessThanOrEqual(cap / 4 + ADDRESS_POLICY.free + 1);
    const refused = results.filter((_, n) => !verified.has(n));
    expect(refused).toHaveLength(10_000 - verified.size);
    expect(refused.every((r) => !r.ok && r.locked)).toBe(true);

    // During the flood: a real account guessed from addresses that have rows of their own is
    // locked after its allowance, and then not even the right password is checked.
    const guesses = [];
    for (let n = 0; n < 19; n++) guesses.push(await login("victim@example.com", n, wrong));
    expect(guesses.slice(0, ACCOUNT_POLICY.free).every((r) => !r.ok && !r.locked)).toBe(true);
    expect(guesses.slice(ACCOUNT_POLICY.free).every((r) => !r.ok && r.locked)).toBe(true);
    let checked = false;
    const owner = await login("victim@example.com", 19, async () => {
      checked = true;
      return "victim";
    });
    expect(owner).toMatchObject({ ok: false, locked: true });
    expect(checked).toBe(false);
    // After the flood the account's lock still stands until it ends, as it always does.
    const later = new Date(now.getTime() + (ACCOUNT_POLICY.firstLockSeconds - 1) * 1000);
    expect(await login("victim@example.com", 20, right, later)).toMatchObject({ locked: true });
    expect(await shop.db.loginThrottle.count()).toBeLessThanOrEqual(cap);
    // 10,000 requests are 10,000 database round trips at least (a refused one costs the lock
    // check only): seconds of work, not a wait on any clock.
  }, 120_000);

  it("past the cap, accounts without a row of their own are counted together and locked together; accounts with one keep their own count", async () => {
    await shop.db.loginThrottle.deleteMany();
    const cap = 40;
    const now = new Date("2027-01-01T16:00:00Z");
    const login = (email: string, address: string, verify: () => Promise<string | null> = wrong) =>
      throttledLogin("shopper", email, address, verify, now, cap);
    // Ten addresses get rows of their own (half the cap, with their accounts' rows), then spend
    // their allowance on new emails until the accounts fill the table.
    for (let a = 0; a < 10; a++) await login(`first${a}@example.com`, `192.0.2.${a}`);
    expect(await login("known@example.com", "192.0.2.0")).toMatchObject({ locked: false });
    let n = 0;
    let rows = await shop.db.loginThrottle.count();
    while (rows < cap - 4) {
      await login(`filler${n}@example.com`, `192.0.2.${n % 10}`);
      n += 1;
      rows = await shop.db.loginThrottle.count();
    }
    // The next new accounts share the overflow bucket: its fifth failure locks them all, and
    // the table holds no more rows than the cap (the bucket is one of the four kept for them).
    const shared = [];
    for (let i = 0; i < ACCOUNT_POLICY.free + 1; i++) {
      shared.push(await login(`late${i}@example.com`, `192.0.2.${i % 10}`));
    }
    expect(shared.slice(0, ACCOUNT_POLICY.free).every((r) => !r.ok && !r.locked)).toBe(true);
    expect(shared.at(-1)).toMatchObject({ ok: false, locked: true });
    expect(await shop.db.loginThrottle.count()).toBeLessThanOrEqual(cap);
    let checked = false;
    const rowless = await login("never-failed@example.com", "192.0.2.9", async () => {
      checked = true;
      return "customer";
    });
    expect(rowless).toMatchObject({ ok: false, locked: true });
    expect(checked).toBe(false);
    // An account that failed before the table filled still has its own count: not locked.
    expect((await login("known@example.com", "192.0.2.8", right)).ok).toBe(true);
    expect(rows).toBe(cap - 4);
  });

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
