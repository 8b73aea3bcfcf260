import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newSessionSalt, sessionHash } from "./session-hash.js";

describe("sessionHash", () => {
  const id = "sess_4f9c2a";
  const salt = "c0ffee-salt";

  // Fixed vectors computed once outside this code base with OpenSSL, e.g.
  //   printf '%s' 'sess_4f9c2a' | openssl dgst -sha256 -hmac 'c0ffee-salt'
  // so a wrong key/message order, encoding or digest cannot agree with itself here.
  it.each([
    [
      "sess_4f9c2a",
      "c0ffee-salt",
      "f96ce206d54337b0c94490f75c645138243e76ce4ec1e653890ecfe309f606fe",
    ],
    [
      "b3d1c0a2-7e55-4c1e-9f0a-2d6f8e1a9b44",
      "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
      "3a01cccf3f73389f43ecbbba873acd3a496f88c59eb8e493bcb244c2a5820ec2",
    ],
    ["sessão-ü", "clé", "d6bf9eaa18c30c1c7dd51d204c5c9512b0fa3f682bd4df688510ff5af338da6a"],
  ])(
    "is HMAC-SHA256 keyed by the salt over the session id, lowercase hex (%s)",
    (sessionId, key, expected) => {
      expect(sessionHash(sessionId, key)).toBe(expected);
    },
  );

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
