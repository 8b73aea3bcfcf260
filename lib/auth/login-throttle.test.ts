import { describe, expect, it } from "vitest";
import { setUpTestDb } from "@/test-support/test-db";
import { clientAddressFrom } from "./client-address";
import {
  ACCOUNT_POLICY,
  ADDRESS_POLICY,
  lockSeconds,
  loginKeys,
  rowsUntil,
  throttledLogin,
  windowKey,
} from "./login-throttle";

// Login throttling lives in the database: per account and per client address, a growing lock,
// a clear message, and no password check at all while locked.

// The cap is LOGIN_THROTTLE_MAX_ROWS for every login; a small one here reaches it in a hundred
// attempts instead of thousands, through the same code. No other test comes near it (100
// attempts at once for one new address take at most its 100 places for addresses).
const CAP = 200;
const shop = setUpTestDb({ LOGIN_THROTTLE_MAX_ROWS: String(CAP) });
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

  it("a flood of 100 failed logins with new emails from one address, 50 at a time, stores 21 rows of 64-character keys and the window's count", async () => {
    await shop.db.loginThrottle.deleteMany();
    const now = new Date("2027-01-01T10:00:00Z");
    let verified = 0;
    const guess = async () => {
      verified += 1;
      return null;
    };
    // Past the twentieth failure every attempt is refused the same way: fifty at once race
    // the lock as a hundred would (the database's connections let a few run at a time), and the
    // second fifty prove the bound as well as 10,000 would (npm run test:budget).
    for (let batch = 0; batch < 2; batch++) {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          throttledLogin("shopper", `flood${batch}-${i}@example.com`, "203.0.113.5", guess, now),
        ),
      );
    }
    const rows = await shop.db.loginThrottle.findMany({ select: { key: true } });
    // The address's free failures plus the one that locks it, each with its account row, and
    // the address's own row, and the window's count of them: attempts arriving together cannot
    // slip past the lock being set, and refused attempts store nothing and check no password.
    expect(verified).toBe(ADDRESS_POLICY.free + 1);
    expect(rows.length).toBe(ADDRESS_POLICY.free + 1 + 1 + 1);
    expect(rows.every((row) => row.key.length === 64)).toBe(true);
    // 100 requests are 100 database round trips (the lock check each refused one costs), fifty
    // writers at once queuing on the database's lock: bounded work, up to 4.8 s measured on one
    // loaded core on PostgreSQL (npm run test:budget), so a limit of three times that.
  }, 15_000);

  it("a flood of 400 failed logins (twice the cap), each a new email from a new address, stays within the cap; accounts and addresses with rows keep their own locks; an hour later the age bound prunes it all", async () => {
    await shop.db.loginThrottle.deleteMany();
    const now = new Date("2027-01-01T14:00:00Z");
    const login = (
      email: string,
      address: string,
      verify: () => Promise<string | null> = wrong,
      at = now,
    ) => throttledLogin("shopper", email, address, verify, at);
    const checked = (value: string | null) => {
      const seen = { checked: false };
      return Object.assign(seen, {
        verify: async () => {
          seen.checked = true;
          return value;
        },
      });
    };
    // Before the flood: one address spends its allowance on twenty accounts and is locked on its
    // own; another fails once, on the account the flood's attacker will guess.
    for (let i = 0; i <= ADDRESS_POLICY.free; i++)
      await login(`early${i}@example.com`, "192.0.2.1");
    expect(await login("early-last@example.com", "192.0.2.1", right)).toMatchObject({
      locked: true,
    });
    await login("victim@example.com", "192.0.2.2");

    // The flood: as a client reaching `next start` directly with TRUSTED_PROXY_HOPS=0 writes a
    // new X-Forwarded-For each time (docs/decisions/client-address.md). 100 at a time through
    // the real admission path.
    const verified = new Set<number>();
    const guess = (n: number) => async () => {
      verified.add(n);
      return null;
    };
    const address = (n: number) => clientAddressFrom(`198.18.${n >> 8}.${n & 255}`, 0);
    const results = [];
    // Twice the cap: past it every new address is answered the same way; more would only add time.
    for (let batch = 0; batch < 4; batch++) {
      results.push(
        ...(await Promise.all(
          Array.from({ length: 100 }, (_, i) => {
            const n = batch * 100 + i;
            return login(`wave${n}@example.com`, address(n), guess(n));
          }),
        )),
      );
    }
    // Rows of keys within the cap, beside the window's count.
    const counted = await shop.db.loginThrottle.findUnique({ where: { key: windowKey(now) } });
    const rows = await shop.db.loginThrottle.count();
    expect(rows).toBeLessThanOrEqual(CAP + 1);
    expect(counted?.failures).toBeLessThanOrEqual(CAP);
    // New addresses had rows of their own up to half the cap; past it an address is counted
    // nowhere, and an email with no account is answered as a wrong password, unchecked.
    expect(verified.size).toBeLessThanOrEqual(rowsUntil(CAP).address);
    const unchecked = results.filter((_, n) => !verified.has(n));
    expect(unchecked).toHaveLength(400 - verified.size);
    expect(unchecked.every((r) => !r.ok && !r.locked)).toBe(true);

    // After the flood: the account guessed before it keeps its own count, from an address with
    // a row of its own: four more failures lock it, and then the right password is not checked.
    for (let i = 0; i < ACCOUNT_POLICY.free - 1; i++) {
      expect(await login("victim@example.com", "192.0.2.2")).toMatchObject({ locked: false });
    }
    expect(await login("victim@example.com", "192.0.2.2")).toMatchObject({ locked: true });
    const owner = checked("victim");
    expect(await login("victim@example.com", "192.0.2.2", owner.verify)).toMatchObject({
      ok: false,
      locked: true,
    });
    expect(owner.checked).toBe(false);
    // The address locked before the flood is still locked on its own count, while the other
    // address with a row of its own still signs in.
    const early = checked("customer");
    expect(await login("someone@example.com", "192.0.2.1", early.verify)).toMatchObject({
      locked: true,
    });
    expect(early.checked).toBe(false);
    expect(await login("someone@example.com", "192.0.2.2", right)).toMatchObject({ ok: true });
    // A new address signs in with the right password of an existing account: nobody's failures
    // but its own lock it.
    const newcomer = await throttledLogin(
      "shopper",
      "someone@example.com",
      "203.0.113.99",
      right,
      now,
      async () => true,
    );
    expect(newcomer).toMatchObject({ ok: true });
    expect(await shop.db.loginThrottle.count()).toBeLessThanOrEqual(CAP + 1);

    // An hour past the flood's last failure the age bound still prunes: the next window starts
    // from what is left, and a new address gets a row of its own again.
    const later = new Date(now.getTime() + 61 * 60 * 1000);
    expect(await login("someone@example.com", "203.0.113.99", right, later)).toMatchObject({
      ok: true,
    });
    const left = await shop.db.loginThrottle.findMany({ select: { key: true } });
    expect(left.map((r) => r.key).sort()).toEqual(
      [
        loginKeys("shopper", "someone@example.com", "203.0.113.99").address,
        windowKey(later),
      ].sort(),
    );
    // 400 requests are 400 lock checks at least (a refused one costs that one read): bounded
    // work, well under a second here; the limit is three times what one loaded core took.
  }, 15_000);

  it("failures arriving together near the cap take no more places than there are", async () => {
    await shop.db.loginThrottle.deleteMany();
    const now = new Date("2027-01-01T18:00:00Z");
    // The last hour's rows of keys, 40 of them: 10 places left for new addresses.
    const before = rowsUntil(CAP).address - 10;
    await shop.db.loginThrottle.createMany({
      data: Array.from({ length: before }, (_, n) => ({
        key: String(n).padStart(64, "0"),
        failures: 1,
        lastFailureAt: now,
      })),
    });
    // 40 new addresses with new emails at once: however the admissions interleave on the
    // database's connections, no more are admitted than there are places.
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        throttledLogin("shopper", `rush${n}@example.com`, `198.19.1.${n}`, wrong, now),
      ),
    );
    expect(results.every((r) => !r.ok)).toBe(true);
    const rows = new Set(
      (await shop.db.loginThrottle.findMany({ select: { key: true } })).map((r) => r.key),
    );
    const own = (kind: "account" | "address") =>
      Array.from(
        { length: 40 },
        (_, n) => loginKeys("shopper", `rush${n}@example.com`, `198.19.1.${n}`)[kind],
      ).filter((key) => rows.has(key)).length;
    expect(own("address")).toBeGreaterThan(0);
    expect(own("address")).toBeLessThanOrEqual(10);
    // The window's count is exact: it started from the rows there were and took one place per
    // row admitted, none lost or doubled by a race.
    const counted = await shop.db.loginThrottle.findUnique({ where: { key: windowKey(now) } });
    expect(counted?.failures).toBe(before + own("address") + own("account"));
  });

  it("past the cap, an existing account gets a row of its own and is locked on its own failures; an email with no account is not counted", async () => {
    await shop.db.loginThrottle.deleteMany();
    const now = new Date("2027-01-01T16:00:00Z");
    const exists = async () => true;
    const login = (email: string, address: string, verify: () => Promise<string | null> = wrong) =>
      throttledLogin("shopper", email, address, verify, now, async () => email.startsWith("real"));
    // The last hour's rows of keys, the whole cap.
    await shop.db.loginThrottle.createMany({
      data: Array.from({ length: CAP }, (_, n) => ({
        key: String(n).padStart(64, "0"),
        failures: 1,
        lastFailureAt: now,
      })),
    });
    // Guesses at an existing account from new addresses: counted on its own row, the fifth
    // locks it, and then its right password is not checked.
    const guesses = [];
    for (let i = 0; i <= ACCOUNT_POLICY.free; i++) {
      guesses.push(await login("real-target@example.com", `198.51.100.${i}`));
    }
    expect(guesses.slice(0, ACCOUNT_POLICY.free).every((r) => !r.ok && !r.locked)).toBe(true);
    expect(guesses.at(-1)).toMatchObject({ ok: false, locked: true });
    let checked = false;
    const target = await login("real-target@example.com", "198.51.100.200", async () => {
      checked = true;
      return "customer";
    });
    expect(target).toMatchObject({ ok: false, locked: true });
    expect(checked).toBe(false);
    // Another existing account is not locked by those failures, nor by 50 failures of emails
    // with no account: neither is counted anywhere.
    for (let i = 0; i < 50; i++) await login(`ghost${i}@example.com`, `198.51.100.${i}`);
    const account = loginKeys("shopper", "real-target@example.com", "x").account;
    const keys = await shop.db.loginThrottle.findMany({ select: { key: true } });
    expect(keys.length).toBe(CAP + 1 + 1);
    expect(keys.some((row) => row.key === account)).toBe(true);
    expect((await login("real-other@example.com", "198.51.100.7", right)).ok).toBe(true);
    expect(
      (await throttledLogin("shopper", "x@example.com", "198.51.100.9", right, now, exists)).ok,
    ).toBe(true);
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
    // The address, five accounts, and the window's count.
    expect(await shop.db.loginThrottle.count()).toBe(7);
    const later = new Date(start.getTime() + 61 * 60 * 1000);
    await throttledLogin("shopper", "new@example.com", "203.0.113.7", wrong, later);
    const keys = (await shop.db.loginThrottle.findMany({ select: { key: true } })).map(
      (r) => r.key,
    );
    const fresh = loginKeys("shopper", "new@example.com", "203.0.113.7");
    expect(keys.sort()).toEqual([fresh.account, fresh.address, windowKey(later)].sort());
  });
});

describe("a lockout flood cannot be turned against customers", () => {
  it("2,500 failed logins from one client, each a new email and a self-written X-Forwarded-For, fill the table; then real customers from new addresses sign in, one typo locks nobody else", async () => {
    await shop.db.loginThrottle.deleteMany();
    const now = new Date("2027-02-01T10:00:00Z");
    const customers = new Set(Array.from({ length: 20 }, (_, i) => `customer${i}@example.com`));
    const exists = (email: string) => async () => customers.has(email);
    const login = (
      email: string,
      forwardedFor: string,
      verify: () => Promise<string | null> = wrong,
    ) =>
      throttledLogin(
        "shopper",
        email,
        clientAddressFrom(forwardedFor, 0),
        verify,
        now,
        exists(email),
      );
    // With TRUSTED_PROXY_HOPS=0 the client writes X-Forwarded-For itself: a new address each time.
    for (let batch = 0; batch < 25; batch++) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) => {
          const n = batch * 100 + i;
          return login(`spray${n}@example.com`, `198.18.${n >> 8}.${n & 255}`);
        }),
      );
    }
    // Real customers from addresses the table has no room for: the right password signs in.
    for (let i = 0; i < 10; i++) {
      const answer = await login(`customer${i}@example.com`, `203.0.113.${i}`, right);
      expect(answer).toMatchObject({ ok: true });
    }
    // One typo from a new address, then a correct password from another new address, and from
    // IPv6 addresses behind a proxy: nobody is locked by another's failure.
    expect(await login("customer10@example.com", "203.0.113.50")).toMatchObject({
      ok: false,
      locked: false,
    });
    expect(await login("customer11@example.com", "203.0.113.51", right)).toMatchObject({
      ok: true,
    });
    expect(await login("customer10@example.com", "2001:db8:1::1", right)).toMatchObject({
      ok: true,
    });
    // Bounded: the cap, the window's count, and the one account that failed (its own row).
    expect(await shop.db.loginThrottle.count()).toBeLessThanOrEqual(CAP + 1 + 1);
  }, 30_000);

  it("IPv6 addresses are counted by their /64: twenty interface ids of one network are one address", async () => {
    await shop.db.loginThrottle.deleteMany();
    const now = new Date("2027-02-01T12:00:00Z");
    const results = [];
    for (let i = 0; i <= ADDRESS_POLICY.free; i++) {
      const address = `2001:db8:aa:bb:${(i + 1).toString(16)}::${i + 7}`;
      results.push(await throttledLogin("shopper", `v6-${i}@example.com`, address, wrong, now));
    }
    expect(results.at(-1)).toMatchObject({ ok: false, locked: true });
    const same = await throttledLogin(
      "shopper",
      "a@example.com",
      "2001:db8:aa:bb::ffff",
      right,
      now,
    );
    expect(same).toMatchObject({ ok: false, locked: true });
    const next = await throttledLogin("shopper", "a@example.com", "2001:db8:aa:bc::1", right, now);
    expect(next).toMatchObject({ ok: true });
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
