import "server-only";
import { createHmac, randomBytes } from "node:crypto";

/**
 * The session hash (contract: Resources › Session hash; public-docs-facts: Sessions).
 * HMAC-SHA256 with the per-session random salt as KEY and the session id as MESSAGE, lowercase
 * hex. Not SHA-256(id + salt): the public docs call that out as wrong. Computed afresh on every
 * call from the current session id ("regenerated … each time, not cached"), so a rotated id
 * never leaves a stale hash behind. The raw id and salt stay on the server (Authentication 6).
 * Server-only (node:crypto).
 */
export function sessionHash(sessionId: string, salt: string): string {
  if (sessionId === "" || salt === "") {
    // An empty key or message would still hash, to a value shared by every such session.
    throw new Error("sessionHash needs a session id and a salt");
  }
  // The salt is used as UTF-8 text, the way `hash_hmac('sha256', $id, $salt)` in the docs'
  // PHP examples uses it; what matters is that it is random per session and kept server-side.
  return createHmac("sha256", salt).update(sessionId, "utf8").digest("hex");
}

/** A new random salt for a shopper session: 32 bytes, hex (256 bits, the HMAC's block-safe
 *  key size). Store it with the session, never send it. */
export function newSessionSalt(): string {
  return randomBytes(32).toString("hex");
}
