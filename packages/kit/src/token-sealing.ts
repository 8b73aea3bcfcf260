import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { TokenSealer } from "./shop-callbacks.js";

/**
 * The service's tokens at rest (contract: Authentication 1–5). The access and refresh tokens
 * act for the merchant's API user, and `user_id` is half of the webhook signing secret, so a
 * copy of the database must not hand them over. Each is sealed with AES-256-GCM under a key
 * derived (HKDF-SHA256) from `SERVICE_TOKEN_KEY`, which lives only in the environment. The
 * field's name is bound in as associated data, so a sealed value cannot be moved to another
 * field or row. `open` answers null for anything it cannot open (another key, tampering, a
 * value stored in plain text before sealing): the token manager then logs in again, so
 * changing the key costs one login and nothing else (docs/decisions/token-storage.md).
 */
export type { TokenSealer };

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The configuration asks for at least this many characters (packages/kit/src/config.ts). */
export const TOKEN_KEY_MIN_LENGTH = 32;

/** The sealer of the service's tokens at rest, keyed from `secret` (SERVICE_TOKEN_KEY, at
 *  least 32 characters). */
export function createTokenSealer(secret: string): TokenSealer {
  return createSealer(secret, {
    purpose: "service-tokens-at-rest/v1",
    setting: "SERVICE_TOKEN_KEY",
  });
}

/**
 * AES-256-GCM under a key derived (HKDF-SHA256) from `secret` for one `purpose`, so one secret
 * gives unrelated keys to unrelated uses (the tokens at rest, the guest cookie). `setting` names
 * the environment variable in the error a short secret gets.
 */
export function createSealer(
  secret: string,
  { purpose, setting }: { purpose: string; setting: string },
): TokenSealer {
  if (secret.length < TOKEN_KEY_MIN_LENGTH) {
    throw new Error(`${setting} must be at least ${TOKEN_KEY_MIN_LENGTH} characters`);
  }
  const key = Buffer.from(hkdfSync("sha256", secret, "", purpose, 32));
  return {
    seal(field, plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(field, "utf8"));
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return [VERSION, iv, body, cipher.getAuthTag()]
        .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
        .join(".");
    },
    open(field, sealed) {
      const [version, iv, body, tag, ...rest] = sealed.split(".");
      if (version !== VERSION || !iv || body === undefined || !tag || rest.length > 0) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(Buffer.from(field, "utf8"));
        const tagBytes = Buffer.from(tag, "base64url");
        if (tagBytes.length !== TAG_BYTES) return null;
        decipher.setAuthTag(tagBytes);
        return Buffer.concat([
          decipher.update(Buffer.from(body, "base64url")),
          decipher.final(),
        ]).toString("utf8");
      } catch {
        return null;
      }
    },
  };
}
