import { getDb } from "@/lib/db/client";
import { createServiceClient, type ServiceClient } from "@/lib/service/client";
import { readServiceConfig } from "@/lib/service/config";
import { integrationObserver } from "@/lib/service/integration-log";
import { getServiceClient } from "@/lib/service-adapter/service";
import { createPrismaTokenStore } from "@/lib/service-adapter/token-store";
import { startRegistrationRetryJob } from "./register-purchase-queue";
import type { TradeInDeps } from "./trade-in-purchase";

/** The app's wiring of the trade-in step: the shop's database, the one service client, real
 *  time. The client is read lazily, so a missing service setting cannot stop the registration
 *  row from being written (the job retries once the setting is fixed). */
export function tradeInDeps(): TradeInDeps {
  return {
    db: getDb(),
    get client() {
      return getServiceClient();
    },
    now: () => new Date(),
  };
}

let jobClient: ServiceClient | undefined;

/**
 * The retry job's own client. Next bundles instrumentation.ts separately from the routes, so the
 * job has its own copy of lib/service: the routes' client (kept on globalThis) would throw error
 * classes the job's copy does not recognise with `instanceof`, and a 503 would escape instead of
 * being queued again. A second client is safe: both share the tokens in the database, and a
 * renewal re-reads the store before refreshing (lib/service/README.md, Tokens).
 */
function jobDeps(): TradeInDeps {
  return {
    db: getDb(),
    get client() {
      jobClient ??= createServiceClient({
        config: readServiceConfig(),
        store: createPrismaTokenStore(getDb()),
        observer: integrationObserver,
      });
      return jobClient;
    },
    now: () => new Date(),
  };
}

export function startTradeInRetryJob(): void {
  startRegistrationRetryJob(jobDeps);
}
