// Webhook signing (contract: Authentication §5): X-Service-Signature is the lowercase hex
// HMAC-SHA256 of the exact body bytes, keyed `<user_id>-<merchant_id>` (the two values of the
// token response), never the client secret.
import { createHmac } from "node:crypto";
import type { Store } from "../state/store";

export const SIGNATURE_HEADER = "X-Service-Signature";

export function sign(body: string, secret: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("hex");
}

/** The merchant's signing secret; its API user is the one whose user_id its tokens carry. */
export function signingSecret(state: Store, merchantId: string): string {
  for (const user of state.users.values()) {
    if (user.merchant_id === merchantId) return `${user.id}-${merchantId}`;
  }
  throw new Error(`merchant ${merchantId} has no API user to sign webhooks for`);
}

/** The classic integration mistake, for the "wrong signature" control: the client secret. */
export function wrongSecret(state: Store, merchantId: string): string {
  for (const client of state.clients.values()) {
    if (client.merchant_id === merchantId) return client.client_secret;
  }
  return "not-the-signing-secret";
}
