import { sealData, unsealData } from "iron-session";
import { NextRequest, NextResponse } from "next/server";
import { describe, expect, it } from "vitest";
import { setUpTestDb } from "@/test-support/test-db";
import { storedPageCurrency, withShopSession } from "./proxy-session";
import { rotateToken } from "./revocation";
import { randomHex32, SESSION_COOKIE, type ShopSessionData } from "./session-data";

// Sessions end on the server: a revoked token makes its cookie anonymous on every instance
// (the list is in the database), and a cookie from before a login is revoked by that login.

const shop = setUpTestDb();
const secret = () => process.env.SESSION_SECRET ?? "";

async function cookieOf(data: ShopSessionData): Promise<string> {
  return `${SESSION_COOKIE}=${await sealData(data, { password: secret(), ttl: 3600 })}`;
}

/** What the proxy leaves the page to see: the cookie it sets, or the one that came in. */
async function visit(cookie: string): Promise<ShopSessionData> {
  const request = new NextRequest("http://shop.test/account", { headers: { cookie } });
  const response = await withShopSession(request, () => NextResponse.next());
  const set = response.cookies.get(SESSION_COOKIE)?.value;
  const value = set ?? request.cookies.get(SESSION_COOKIE)?.value ?? "";
  return unsealData<ShopSessionData>(value, { password: secret() });
}

const signedIn = (): ShopSessionData => ({
  sessionId: randomHex32(),
  salt: randomHex32(),
  token: randomHex32(),
  customerId: "c1",
  admin: true,
});

describe("shop session in the proxy", () => {
  it("keeps a live session as it is", async () => {
    const data = signedIn();
    expect(await visit(await cookieOf(data))).toEqual(data);
  });

  it("makes a cookie anonymous once its token is revoked, with a new identity", async () => {
    const data = signedIn();
    const copy = await cookieOf(data);
    await rotateToken({ ...data }, "logout");
    const seen = await visit(copy);
    expect(seen.customerId).toBeUndefined();
    expect(seen.admin).toBeUndefined();
    expect(seen.sessionId).toMatch(/^[0-9a-f]{64}$/);
    expect(seen.sessionId).not.toBe(data.sessionId);
    expect(seen.salt).not.toBe(data.salt);
    expect(seen.token).not.toBe(data.token);
    expect(await shop.db.revokedSession.count()).toBeGreaterThan(0);
    // Only a hash of the token is stored.
    const rows = await shop.db.revokedSession.findMany();
    expect(JSON.stringify(rows)).not.toContain(data.token);
  });

  it("answers a revoked cookie as anonymous without overwriting the browser's cookie", async () => {
    // A request the page had in flight while the same browser logged in carries the old cookie:
    // a Set-Cookie on its answer would log the shopper straight out again.
    const data = signedIn();
    const old = await cookieOf(data);
    await rotateToken({ ...data }, "login");
    const request = new NextRequest("http://shop.test/api/service/inspector", {
      headers: { cookie: old },
    });
    const response = await withShopSession(request, () => NextResponse.next());
    expect(response.cookies.get(SESSION_COOKIE)).toBeUndefined();
    const seen = await unsealData<ShopSessionData>(
      request.cookies.get(SESSION_COOKIE)?.value ?? "",
      { password: secret() },
    );
    expect(seen.customerId).toBeUndefined();
    expect(seen.sessionId).not.toBe(data.sessionId);
  });

  it("a cookie copied before login is anonymous after it; the signed-in one keeps the identity", async () => {
    const before: ShopSessionData = {
      sessionId: randomHex32(),
      salt: randomHex32(),
      token: randomHex32(),
    };
    const copied = await cookieOf(before);
    const after = { ...before };
    await rotateToken(after, "login");
    after.customerId = "c1";
    const mine = await visit(await cookieOf(after));
    expect(mine.sessionId).toBe(before.sessionId);
    expect(mine.customerId).toBe("c1");
    const theirs = await visit(copied);
    expect(theirs.sessionId).not.toBe(before.sessionId);
    expect(theirs.customerId).toBeUndefined();
  });

  it("never trusts an identity that comes without a token", async () => {
    const legacy = { sessionId: randomHex32(), salt: randomHex32(), customerId: "c1" };
    const seen = await visit(await cookieOf(legacy));
    expect(seen.sessionId).not.toBe(legacy.sessionId);
    expect(seen.customerId).toBeUndefined();
  });
});

describe("the currency a stored catalog page is chosen by", () => {
  const request = (cookie?: string) =>
    new NextRequest("http://shop.test/products/phone", { headers: cookie ? { cookie } : {} });

  it("is the session's, for a cookie with an identity", async () => {
    expect(
      await storedPageCurrency(request(await cookieOf({ ...signedIn(), currency: "GBP" }))),
    ).toBe("GBP");
    expect(await storedPageCurrency(request(await cookieOf(signedIn())))).toBe("EUR");
  });

  it("is none without a cookie, with a forged or cut one, or one without token or identity", async () => {
    const good = await cookieOf({ ...signedIn(), currency: "GBP" });
    const { token: _token, ...noToken } = signedIn();
    const { sessionId: _id, ...noIdentity } = signedIn();
    for (const cookie of [
      undefined,
      `${SESSION_COOKIE}=`,
      good.slice(0, -10),
      good.replace(/.$/, (c) => (c === "A" ? "B" : "A")),
      `${SESSION_COOKIE}=${await sealData(signedIn(), { password: `${secret()}-other`, ttl: 3600 })}`,
      await cookieOf(noToken),
      await cookieOf(noIdentity),
    ]) {
      expect(await storedPageCurrency(request(cookie)), cookie).toBeNull();
    }
  });
});
