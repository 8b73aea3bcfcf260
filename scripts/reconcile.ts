// npm run reconcile: lists the service's paid orders and repairs Service Pay orders whose webhook
// never arrived (packages/kit/src/reconciliation.ts), then retries every queued
// register-purchase (npm run jobs:retry does only the latter). Prints what it changed.

import { reconcileServiceOrders, retryDueRegistrations } from "@service-integration/kit/server";
import { getDb } from "@/lib/db/client";
import { serviceOrderDeps, tradeInDeps } from "@/lib/service-adapter/service";

const onlyRetry = process.argv.includes("--retry-only");
try {
  if (!onlyRetry) {
    const report = await reconcileServiceOrders(serviceOrderDeps());
    for (const line of report.lines) console.log(line);
  }
  const retried = await retryDueRegistrations(tradeInDeps(), { all: true, limit: 500 });
  console.log(
    `Queued trade-in registrations: ${retried.due} tried, ${retried.registered} registered, ${retried.notApplied} not applied, ${retried.stillQueued} still queued.`,
  );
  await getDb().$disconnect();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
