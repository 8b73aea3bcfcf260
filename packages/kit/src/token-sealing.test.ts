import { describe, expect, it } from "vitest";
import { createTokenSealer } from "./token-sealing.js";

const key = "k".repeat(32);

describe("createTokenSealer", () => {
  it("seals so the token does not appear in what is stored, and opens it again", () => {
    const sealer = createTokenSealer(key);
    const sealed = sealer.seal("accessToken", "at_live_0123456789");
    expect(sealed).not.toContain("at_live");
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealer.open("accessToken", sealed)).toBe("at_live_0123456789");
  });

  it("uses a fresh nonce each time: the same token never seals to the same text", () => {
    const sealer = createTokenSealer(key);
    expect(sealer.seal("f", "same")).not.toBe(sealer.seal("f", "same"));
  });

  it("opens nothing sealed under another key, for another field, tampered or in plain text", () => {
    const sealer = createTokenSealer(key);
    const sealed = sealer.seal("refreshToken", "rt_1");
    expect(createTokenSealer("x".repeat(32)).open("refreshToken", sealed)).toBeNull();
    expect(sealer.open("accessToken", sealed)).toBeNull();
    const [v, iv, body, tag] = sealed.split(".");
    const flipped = `${body?.[0] === "A" ? "B" : "A"}${body?.slice(1)}`;
    expect(sealer.open("refreshToken", [v, iv, flipped, tag].join("."))).toBeNull();
    expect(sealer.open("refreshToken", [v, iv, body, "AAAA"].join("."))).toBeNull();
    expect(sealer.open("refreshToken", "rt_1")).toBeNull();
    expect(sealer.open("refreshToken", `${sealed}.extra`)).toBeNull();
  });

  it("refuses a short key", () => {
    expect(() => createTokenSealer("short")).toThrow(/at least 32/);
  });
});
