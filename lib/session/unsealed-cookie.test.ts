import { sealData } from "iron-session";
import { describe, expect, it } from "vitest";
import { randomHex32, type ShopSessionData } from "./session-data";
import { unsealSessionCookie } from "./unsealed-cookie";

const password = "a-session-secret-of-at-least-32-characters";
const options = { password, ttl: 3600 };
const data = (): ShopSessionData => ({
  sessionId: randomHex32(),
  salt: randomHex32(),
  token: randomHex32(),
  currency: "GBP",
});

describe("unsealing a session cookie", () => {
  it("gives what was sealed, read only, and the same copy again within a minute", async () => {
    const sealed = data();
    const seal = await sealData(sealed, options);
    const first = await unsealSessionCookie(seal, options, 1_000);
    expect(first).toEqual(sealed);
    expect(Object.isFrozen(first)).toBe(true);
    expect(await unsealSessionCookie(seal, options, 61_000)).toBe(first);
    // Past the minute it is unsealed again.
    const later = await unsealSessionCookie(seal, options, 61_001);
    expect(later).not.toBe(first);
    expect(later).toEqual(sealed);
  });

  it("gives nothing for a forged, cut or foreign cookie", async () => {
    const seal = await sealData(data(), options);
    const foreign = await sealData(data(), { password: `${password}-other`, ttl: 3600 });
    const flipped = `${seal.slice(0, -4)}${seal.at(-4) === "A" ? "B" : "A"}${seal.slice(-3)}`;
    for (const bad of [seal.slice(0, -8), flipped, foreign, "Fe26.2**x"]) {
      expect(await unsealSessionCookie(bad, options), bad).toEqual({});
    }
  });
});
