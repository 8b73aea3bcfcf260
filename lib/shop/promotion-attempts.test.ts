import { describe, expect, it } from "vitest";
import { ACCOUNT_POLICY, ADDRESS_POLICY } from "@/lib/auth/login-throttle";
import { newSession, seedCart, seedCartSessions, setUpTestShop } from "@/test-support/test-shop";
import { tryPromotionCode } from "./promotion-attempts";

// Promotion codes cannot be guessed freely: refused codes are counted per session and per client
// address in the login throttle's bounded table (lib/auth/login-throttle.ts).

const shop = setUpTestShop();

async function cartSession() {
  const session = newSession();
  await seedCart(shop.db, session.sessionId, [{ productId: shop.products.phone.id, quantity: 1 }]);
  return session.sessionId;
}

describe("tryPromotionCode", () => {
  it("60 unknown codes from one session (twelve times the allowance): the fifth refusal locks it, and even a valid code waits", async () => {
    await shop.db.promotionCode.upsert({
      where: { code: "REAL10" },
      create: { code: "REAL10", name: "10 %", kind: "percent", percent: 10 },
      update: {},
    });
    await shop.db.loginThrottle.deleteMany();
    const sessionId = await cartSession();
    const now = new Date("2027-04-01T10:00:00Z");
    const answers = [];
    // Twelve times the allowance proves every later guess refused; the probe's 500 add only time
    // (on PostgreSQL on a loaded core 500 took past the 5 s limit).
    for (let i = 0; i < 60; i++) {
      answers.push(await tryPromotionCode(sessionId, "203.0.113.20", `GUESS-${i}`, now));
    }
    const judged = answers.filter((a) => !a.ok && !/Too many promotion codes/.test(a.error));
    // The first four are answered for the code itself; the fifth is checked too and answered with
    // the lock it caused; every later one is refused before the code is read.
    expect(judged).toHaveLength(ACCOUNT_POLICY.free);
    expect(answers.at(-1)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/Try another code in/),
    });
    // The lock holds for a real code too: a guesser learns nothing while it lasts.
    expect(await tryPromotionCode(sessionId, "203.0.113.20", "REAL10", now)).toMatchObject({
      ok: false,
    });
    expect(await shop.db.cartPromotion.count()).toBe(0);
    // Once it ends, a real code applies.
    const later = new Date(now.getTime() + 16 * 60 * 1000);
    expect(await tryPromotionCode(sessionId, "203.0.113.20", "REAL10", later)).toEqual({
      ok: true,
    });
    // Stored: the session's row, the address's and the window's count.
    expect(await shop.db.loginThrottle.count()).toBe(3);
  });

  it("one address trying codes from many sessions is locked after its allowance; another address is not", async () => {
    await shop.db.loginThrottle.deleteMany();
    const now = new Date("2027-04-01T12:00:00Z");
    // The allowance, the attempt it locks on, and four after it: each case one attempt, its
    // session's cart made beforehand with all the others' (on PostgreSQL on a loaded core 40
    // cases, each making its own cart, took past the 5 s limit).
    const sessions = await seedCartSessions(shop.db, ADDRESS_POLICY.free + 5, [
      { productId: shop.products.phone.id, quantity: 1 },
    ]);
    const answers = [];
    for (const [i, sessionId] of sessions.entries()) {
      answers.push(await tryPromotionCode(sessionId, "198.51.100.30", `SPRAY-${i}`, now));
    }
    const judged = answers.filter((a) => !a.ok && !/Too many promotion codes/.test(a.error));
    expect(judged).toHaveLength(ADDRESS_POLICY.free);
    const elsewhere = await tryPromotionCode(await cartSession(), "198.51.100.31", "NOPE1", now);
    expect(elsewhere).toMatchObject({ ok: false, error: expect.not.stringMatching(/Too many/) });
  });
});
