import type { Db } from "@/lib/db/client";
import {
  type NotificationOutcome,
  type OrderCreationMode,
  receiveServiceNotification,
} from "@/lib/shop/service-orders";
import type { WebhookSecretSource } from "./service";
import { parseOrderNotification, WebhookPayloadError } from "./webhook-payload";
import { verifyWebhookSignature } from "./webhook-signature";

/**
 * The order webhook receiver, `POST {merchant_webhook_base}/order` (contract: Events › Webhook,
 * Authentication 5, Merchant endpoints rule 2). Framework-free: the route passes the raw body
 * bytes and the signature header and sends back what this returns.
 *
 * 1. Signature over the RAW bytes, constant-time (webhook-signature.ts). Missing or wrong → 403
 *    before anything is parsed or written.
 * 2. Malformed body with a valid signature → 400 (the service would resend the same bytes, but
 *    an operator must see it; retrying cannot fix it).
 * 3. Stored and applied in one transaction, idempotent by a unique key; a duplicate is 200 too.
 * 4. Success is exactly 200 (rule 2: 201, 204 and other 2xx do not count).
 */

export interface WebhookResponse {
  status: 200 | 400 | 403 | 503;
  body: Record<string, unknown>;
}

export interface OrderWebhookDeps {
  db: Db;
  secret: WebhookSecretSource;
  mode: OrderCreationMode;
  shopBaseUrl: string;
  log?: (message: string, error?: unknown) => void;
}

const FORBIDDEN: WebhookResponse = {
  status: 403,
  body: { error: "forbidden", error_description: "Missing or invalid X-Service-Signature." },
};

export async function receiveOrderWebhook(
  rawBody: Uint8Array,
  signature: string | null,
  deps: OrderWebhookDeps,
): Promise<WebhookResponse> {
  if (!signature) return FORBIDDEN;
  let secret: string;
  try {
    secret = await deps.secret.get();
    // One fresh look-up on a mismatch: the API user (and so the secret) may have changed since
    // the secret was cached. A forged delivery costs one extra read, never a change.
    if (!verifyWebhookSignature(rawBody, signature, secret)) {
      const fresh = await deps.secret.get(true);
      if (fresh === secret || !verifyWebhookSignature(rawBody, signature, fresh)) return FORBIDDEN;
    }
  } catch (error) {
    // No stored token and the service cannot be reached to log in: the signature cannot be
    // checked yet. Not 403 (it may be genuine) and not 200: 503 makes the service retry.
    deps.log?.("order webhook: the signing secret is not available", error);
    return {
      status: 503,
      body: {
        error: "service_unavailable",
        error_description: "The webhook secret is not available yet; retry later.",
      },
    };
  }

  let notification: ReturnType<typeof parseOrderNotification>;
  try {
    notification = parseOrderNotification(rawBody);
  } catch (error) {
    if (error instanceof WebhookPayloadError) {
      return { status: 400, body: { error: "bad_request", error_description: error.message } };
    }
    throw error;
  }

  const result = await receiveServiceNotification(
    deps.db,
    {
      notificationId: notification.notificationId,
      event: notification.event,
      orderId: notification.orderId,
      cartId: notification.cartId,
      status: notification.status,
      amount: notification.amount,
      currency: notification.currency,
      tradeInDiscount: notification.tradeInDiscount,
      form: notification.form,
      // Valid UTF-8: parseOrderNotification refused anything else.
      body: new TextDecoder().decode(rawBody),
    },
    { mode: deps.mode, shopBaseUrl: deps.shopBaseUrl },
  );
  return {
    status: 200,
    body: { received: true, outcome: result.outcome satisfies NotificationOutcome },
  };
}
