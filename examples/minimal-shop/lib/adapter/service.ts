import "server-only";
import {
  createServiceClient,
  createTokenSealer,
  createWebhookSecretSource,
  type NotificationDeps,
  processSingleton,
  readOrderCreationMode,
  readServiceConfig,
  retryDueRegistrations,
  type ServiceClient,
  type TradeInDeps,
} from "@service-integration/kit/server";
import { shopBaseUrl } from "./orders";
import { miniServicePayStore } from "./service-pay-store";
import { miniOrderStatuses } from "./statuses";
import { miniTokenStore } from "./token-store";
import { miniTradeInStore } from "./trade-in-store";

// The shop's wiring of the kit: one client per process, the webhook secret, the deps.

export function serviceClient(): ServiceClient {
  return processSingleton("mini-service-client", () => {
    const config = readServiceConfig();
    return createServiceClient({
      config,
      store: miniTokenStore(createTokenSealer(config.tokenKey)),
    });
  });
}

export const webhookSecret = () =>
  processSingleton("mini-webhook-secret", () =>
    createWebhookSecretSource(() => serviceClient().tokens.getIdentity()),
  );

export function servicePayDeps(): NotificationDeps {
  return {
    store: miniServicePayStore,
    statuses: miniOrderStatuses,
    mode: readOrderCreationMode(),
    shopBaseUrl: shopBaseUrl(),
  };
}

export function tradeInDeps(): TradeInDeps {
  return {
    store: miniTradeInStore,
    get client() {
      return serviceClient();
    },
    now: () => new Date(),
  };
}

/** The register-purchase retry job, once per process (instrumentation.ts). */
export function startRetryJob(): void {
  processSingleton("mini-retry-job", () => {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      retryDueRegistrations(tradeInDeps())
        .catch((error) => console.error("[retry job]", error))
        .finally(() => {
          running = false;
        });
    }, 2_000);
    timer.unref?.();
    return timer;
  });
}
