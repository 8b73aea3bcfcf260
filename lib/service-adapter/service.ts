import "server-only";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { createServiceClient, type ServiceClient } from "@/lib/service/client";
import { readOrderCreationMode, readServiceConfig } from "@/lib/service/config";
import { integrationObserver } from "@/lib/service/integration-log";
import {
  createWebhookSecretSource,
  type NotificationDeps,
  type WebhookSecretSource,
} from "@/lib/service/order-webhook";
import { processSingleton } from "@/lib/service/process-singleton";
import { createServicePayStore, shopOrderStatuses } from "./service-pay-store";
import { createPrismaTokenStore } from "./token-store";

// The shop's wiring of lib/service: the one service client per process, the webhook signing
// secret, and the Service Pay store on the shop's database. Routes, pages, actions and the
// retry job take them from here, never build their own.

/** One client per process, so the token manager's single-flight renewal covers every request
 *  (and the retry job: error classes are recognised across bundled copies, errors.ts). */
export function getServiceClient(): ServiceClient {
  return processSingleton("service-client", () =>
    createServiceClient({
      config: readServiceConfig(),
      store: createPrismaTokenStore(getDb()),
      // Every attempt, for the integration inspector (only inside a shopper's request context,
      // so background calls are not shown to anyone).
      observer: integrationObserver,
    }),
  );
}

export function getWebhookSecretSource(): WebhookSecretSource {
  return processSingleton("webhook-secret", () =>
    createWebhookSecretSource(() => getServiceClient().tokens.getIdentity()),
  );
}

/** What the webhook, the pending order and reconciliation need: the store and the settings. */
export function servicePayDeps(): NotificationDeps {
  return {
    store: createServicePayStore(getDb()),
    statuses: shopOrderStatuses,
    mode: readOrderCreationMode(),
    shopBaseUrl: getConfig().SHOP_BASE_URL,
  };
}
