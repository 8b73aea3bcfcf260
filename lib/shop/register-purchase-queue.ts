import { withInspectorSession } from "@/lib/service/integration-log";
import { processRegistration, type TradeInDeps } from "./trade-in-purchase";

// The retry job of queued register-purchase calls (issue #6, item 1). It runs in-process on a
// timer started once per server (instrumentation.ts), and on demand with `npm run jobs:retry`.
// Several runners at once are safe: each attempt claims its row first (trade-in-purchase.ts).

export interface RetryRunSummary {
  due: number;
  registered: number;
  notApplied: number;
  noTradeIn: number;
  stillQueued: number;
}

export async function retryDueRegistrations(
  deps: TradeInDeps,
  options: { limit?: number; all?: boolean } = {},
): Promise<RetryRunSummary> {
  const rows = await deps.db.tradeInRegistration.findMany({
    where: {
      status: "queued",
      ...(options.all ? {} : { nextAttemptAt: { lte: deps.now() } }),
    },
    orderBy: { nextAttemptAt: "asc" },
    take: options.limit ?? 20,
    select: { orderId: true },
  });
  const summary: RetryRunSummary = {
    due: rows.length,
    registered: 0,
    notApplied: 0,
    noTradeIn: 0,
    stillQueued: 0,
  };
  for (const { orderId } of rows) {
    const order = await deps.db.order.findUnique({
      where: { id: orderId },
      select: { sessionId: true },
    });
    // The shopper's inspector drawer shows the retry too.
    const run = () => processRegistration(deps, orderId);
    const result = order ? await withInspectorSession(order.sessionId, run) : await run();
    if (result.status === "registered") summary.registered += 1;
    else if (result.status === "not_applied") summary.notApplied += 1;
    else if (result.status === "no_trade_in") summary.noTradeIn += 1;
    else summary.stillQueued += 1;
  }
  return summary;
}

const globalForJob = globalThis as unknown as {
  shopRegistrationJob?: ReturnType<typeof setInterval>;
};

/**
 * Starts the timer once per process. `TRADE_IN_RETRY_INTERVAL_MS` (default 2000) sets how often
 * due rows are looked for; a run still going when the next tick comes is not overlapped.
 */
export function startRegistrationRetryJob(
  deps: () => TradeInDeps,
  env: Record<string, string | undefined> = process.env,
): void {
  if (globalForJob.shopRegistrationJob) return;
  const interval = Number(env.TRADE_IN_RETRY_INTERVAL_MS ?? 2_000);
  if (!Number.isFinite(interval) || interval <= 0) return;
  let running = false;
  globalForJob.shopRegistrationJob = setInterval(() => {
    if (running) return;
    running = true;
    retryDueRegistrations(deps())
      .catch((error) => console.error("[trade-in retry job]", error))
      .finally(() => {
        running = false;
      });
  }, interval);
  globalForJob.shopRegistrationJob.unref?.();
}
