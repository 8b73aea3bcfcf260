import { describe, expect, it } from "vitest";
import { setUpTestDb } from "@/test-support/test-db";
import { endSession, isRevoked, rotateToken } from "./revocation";
import { ensureIdentity, type ShopSessionData } from "./session-data";

// Ending a session stores a revocation only when there was a sign-in to end: what anonymous
// requests can make the shop store is bounded (docs/security.md, "Bounded storage").

const shop = setUpTestDb();

const fresh = (extra: Partial<ShopSessionData> = {}): ShopSessionData => {
  const data: ShopSessionData = { ...extra };
  ensureIdentity(data);
  return data;
};

describe("endSession", () => {
  it("1,000 logouts of sessions nobody signed in to store nothing, and each gets a new identity", async () => {
    await shop.db.revokedSession.deleteMany();
    // A thousand: one stored row would show; more would only add time (npm run test:budget).
    for (let i = 0; i < 1_000; i++) {
      const data = fresh();
      const before = { ...data };
      await endSession(data, i % 2 ? "logout" : "admin_sign_out");
      expect(data.token).not.toBe(before.token);
      expect(data.sessionId).not.toBe(before.sessionId);
    }
    expect(await shop.db.revokedSession.count()).toBe(0);
  });

  it("a signed-in shopper's or admin's logout revokes the token, on every instance", async () => {
    await shop.db.revokedSession.deleteMany();
    for (const signedIn of [{ customerId: "c1" }, { admin: true }]) {
      const data = fresh(signedIn);
      const token = data.token as string;
      await endSession(data, "logout");
      expect(await isRevoked(token)).toBe(true);
      expect(data.customerId).toBeUndefined();
      expect(data.admin).toBeUndefined();
    }
    expect(await shop.db.revokedSession.count()).toBe(2);
  });

  it("rows past the cookie lifetime are pruned by the next revocation", async () => {
    await shop.db.revokedSession.deleteMany();
    const then = new Date("2027-01-01T00:00:00Z");
    await rotateToken(fresh({ customerId: "c1" }), "logout", then);
    const later = new Date(then.getTime() + 400 * 24 * 3600 * 1000);
    await rotateToken(fresh({ customerId: "c2" }), "logout", later);
    expect(await shop.db.revokedSession.count()).toBe(1);
  });
});
