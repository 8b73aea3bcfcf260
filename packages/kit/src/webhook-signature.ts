import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Order webhook authentication (contract: Authentication 5, Events › Webhook;
 * public-docs-facts: the three rules that cause most failed integrations).
 * `X-Service-Signature` is the hex HMAC-SHA256 of the RAW request body bytes, keyed with
 * `<user_id>-<merchant_id>` from the token response, never the client secret. Compared in
 * constant time. A route answers 403 when this returns false, and changes nothing.
 * Server-only (node:crypto).
 */

export const SIGNATURE_HEADER = "x-service-signature";

/** The signing secret: the two values from the token response joined by a hyphen. */
export function webhookSecret(identity: { userId: string; merchantId: string }): string {
  return `${identity.userId}-${identity.merchantId}`;
}

/** The signature the service would send for these bytes (also used by tests and the bench). */
export function signWebhookBody(rawBody: Uint8Array, secret: string): string {
  return createHmac("sha256", secret).update(rawBody).digest("hex");
}

// Exactly 64 hex digits. Uppercase is accepted (decision in README: it encodes the same bytes,
// and refusing it would turn a cosmetic difference into 403s and lost payments); anything else
// (a prefix such as "sha256=", spaces inside, a short value) is malformed.
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/**
 * Takes the body as bytes (`new Uint8Array(await request.arrayBuffer())` in a route), so it can
 * only be checked over what was received, never over re-serialised JSON.
 */
export function verifyWebhookSignature(
  rawBody: Uint8Array,
  header: string | null | undefined,
  secret: string,
): boolean {
  if (!secret) return false; // An unset secret must never mean "skip the check".
  if (typeof header !== "string") return false;
  const received = header.trim();
  if (!HEX_SHA256.test(received)) return false;
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  const given = Buffer.from(received, "hex");
  // timingSafeEqual throws on unequal lengths; the regex already fixed it at 32, checked again
  // so a future change to the regex cannot turn a mismatch into an exception.
  return given.length === expected.length && timingSafeEqual(given, expected);
}
