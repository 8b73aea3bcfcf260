import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newSessionSalt, sessionHash } from "./session-hash";

describe("sessionHash", () => {
  const id = "sess_4f9c2a";
  const salt = "c0ffee-salt";

  it("is HMAC-SHA256 keyed by the salt over the session id, lowercase hex", () => {
    const expected = createHmac("sha256", Buffer.from(salt, "utf8"))
      .update(Buffer.from(id))
      .digest();
    const hash = sessionHash(id, salt);
    expect(hash).toBe(expected.toString("hex"));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("is not plain SHA-256 of id+salt or salt+id, nor the HMAC with key and message swapped", () => {
    const hash = sessionHash(id, salt);
    expect(hash).not.toBe(
      createHash("sha256")
        .update(id + salt)
        .digest("hex"),
    );
    expect(hash).not.toBe(
      createHash("sha256")
        .update(salt + id)
        .digest("hex"),
    );
    expect(hash).not.toBe(createHmac("sha256", id).update(salt).digest("hex"));
  });

  it("follows the current session id every call (no cache)", () => {
    expect(sessionHash("a", salt)).not.toBe(sessionHash("b", salt));
    expect(sessionHash("a", salt)).toBe(sessionHash("a", salt));
    expect(sessionHash("a", "other-salt")).not.toBe(sessionHash("a", salt));
  });

  it("does not contain the session id", () => {
    expect(sessionHash(id, salt)).not.toContain(id);
  });

  it("refuses an empty id or salt", () => {
    expect(() => sessionHash("", salt)).toThrow();
    expect(() => sessionHash(id, "")).toThrow();
  });
});

describe("newSessionSalt", () => {
  it("is 32 random bytes in hex, different each time", () => {
    const a = newSessionSalt();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(newSessionSalt()).not.toBe(a);
  });
});
