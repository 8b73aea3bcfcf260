import { getDb } from "@/lib/db/client";
import { getServiceClient } from "@/lib/service/service";
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

export function startTradeInRetryJob(): void {
  startRegistrationRetryJob(tradeInDeps);
}
