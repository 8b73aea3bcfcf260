import { describe, expect, it } from "vitest";
import { setUpTestDb } from "@/test-support/test-db";
import { ACCOUNT_POLICY, lockSeconds, throttledLogin } from "./login-throttle";

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
      where: { key: "shopper:account:race@example.com" },
    });
    expect(row?.failures).toBe(3);
  });
});
