import { getDb } from "@/lib/db/client";
import type { OrderCreationMode } from "@/lib/shop/service-orders";
import { createServiceClient, type ServiceClient } from "./client";
import { readServiceConfig } from "./config";
import { integrationObserver } from "./integration-log";
import { createPrismaTokenStore } from "./prisma-token-store";
import { webhookSecret } from "./webhook-signature";

/**
 * The app's wiring of lib/service (server-only): one service client per process, the webhook
 * signing secret, and the order-creation setting. Routes import from here, never build their own.
 */

const globalForService = globalThis as unknown as { shopServiceClient?: ServiceClient };

/** One client per process, so the token manager's single-flight renewal covers every request. */
export function getServiceClient(): ServiceClient {
  globalForService.shopServiceClient ??= createServiceClient({
    config: readServiceConfig(),
    store: createPrismaTokenStore(getDb()),
    // Every attempt, for the integration inspector (integration-log.ts; only inside a shopper's
    // request context, so background calls are not shown to anyone).
    observer: integrationObserver,
  });
  return globalForService.shopServiceClient;
}

/**
 * `SERVICE_ORDER_CREATION`: `ready_to_place_order` (default: a pending order is created when the
 * SDK's ready-to-place-order listener fires) or `webhook` (the contract's default: the order is
 * created when the webhook arrives). Anything else is refused loudly rather than guessed.
 */
export function orderCreationMode(env: Record<string, string | undefined> = process.env) {
  const value = env.SERVICE_ORDER_CREATION?.trim() || "ready_to_place_order";
  if (value !== "ready_to_place_order" && value !== "webhook") {
    throw new Error(
      "SERVICE_ORDER_CREATION must be ready_to_place_order or webhook (see docs/integrating.md, Setting: SERVICE_ORDER_CREATION)",
    );
  }
  return value satisfies OrderCreationMode;
}

export interface WebhookSecretSource {
  /** The secret to check a signature with; `fresh` re-reads it instead of using the cache. */
  get(fresh?: boolean): Promise<string>;
}

/**
 * Contract, Authentication 5: the secret is `<user_id>-<merchant_id>` from the token response.
 * The ids come from the stored tokens (no refresh needed: they do not change with the token);
 * if no token was ever obtained, logging in is the only way to learn them. They are cached in
 * memory so a delivery costs no database read; the receiver asks for a fresh value once when a
 * signature does not match, in case the API user was changed since.
 */
export function createWebhookSecretSource(
  loadIdentity: () => Promise<{ userId: string; merchantId: string }> = () =>
    getServiceClient().tokens.getIdentity(),
): WebhookSecretSource {
  let cached: Promise<string> | null = null;
  return {
    get(fresh = false) {
      if (fresh || !cached) {
        const next = loadIdentity().then(webhookSecret);
        // A failed lookup (service unreachable on the first login) is not cached.
        next.catch(() => {
          if (cached === next) cached = null;
        });
        cached = next;
      }
      return cached;
    },
  };
}

const globalForSecret = globalThis as unknown as { shopWebhookSecret?: WebhookSecretSource };

export function getWebhookSecretSource(): WebhookSecretSource {
  globalForSecret.shopWebhookSecret ??= createWebhookSecretSource();
  return globalForSecret.shopWebhookSecret;
}
