// Runs once when a Next.js server starts: the retry job of queued register-purchase calls
// (issue #6; lib/shop/register-purchase-queue.ts) lives as long as the server.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startTradeInRetryJob } = await import("./lib/shop/trade-in-service");
  startTradeInRetryJob();
}
