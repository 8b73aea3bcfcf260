// Runs once when a Next.js server starts: the retry job of queued register-purchase calls
// (lib/service/card-trade-in.ts) lives as long as the server.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startTradeInRetryJob } = await import("./lib/service-adapter/service");
  startTradeInRetryJob();
}
