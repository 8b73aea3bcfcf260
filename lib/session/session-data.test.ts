import { sealData, unsealData } from "iron-session";
import { describe, expect, it } from "vitest";
import {
  ensureIdentity,
  hasIdentity,
  randomHex32,
  type ShopSessionData,
  sessionCurrency,
  sessionOptions,
} from "./session-data";

const secret = "s".repeat(32);

describe("session identity", () => {
  it("creates a 32-byte hex id and a different 32-byte hex salt", () => {
    const data: ShopSessionData = {};
    expect(ensureIdentity(data)).toBe(true);
    expect(data.sessionId).toMatch(/^[0-9a-f]{64}$/);
    expect(data.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(data.token).toMatch(/^[0-9a-f]{64}$/);
    expect(data.salt).not.toBe(data.sessionId);
    expect(data.token).not.toBe(data.sessionId);
    expect(randomHex32()).not.toBe(randomHex32());
  });

  it("keeps an existing identity (logging in keeps the session id)", () => {
    const data: ShopSessionData = {
      sessionId: randomHex32(),
      salt: randomHex32(),
      token: randomHex32(),
    };
    const before = { ...data };
    expect(ensureIdentity(data)).toBe(false);
    data.customerId = "c1";
    expect(ensureIdentity(data)).toBe(false);
    expect(data.sessionId).toBe(before.sessionId);
    expect(data.salt).toBe(before.salt);
  });

  it("replaces a malformed identity", () => {
    const data: ShopSessionData = { sessionId: "abc", salt: "def" };
    expect(hasIdentity(data)).toBe(false);
    expect(ensureIdentity(data)).toBe(true);
    expect(hasIdentity(data)).toBe(true);
  });

  it("seals the identity so the cookie holds no readable id", async () => {
    const data: ShopSessionData = {};
    ensureIdentity(data);
    const sealed = await sealData(data, { password: secret });
    expect(sealed).not.toContain(data.sessionId);
    expect(await unsealData<ShopSessionData>(sealed, { password: secret })).toEqual(data);
    expect(await unsealData(sealed, { password: "t".repeat(32) })).toEqual({});
  });

  it("cookie is httpOnly, SameSite=Lax and Secure in production", () => {
    expect(sessionOptions(secret, true).cookieOptions).toMatchObject({
      httpOnly: true,
      sameSite: "lax",
      secure: true,
    });
    expect(sessionOptions(secret, false).cookieOptions?.secure).toBe(false);
  });

  it("defaults the currency to EUR", () => {
    expect(sessionCurrency({})).toBe("EUR");
    expect(sessionCurrency({ currency: "GBP" })).toBe("GBP");
  });
});
