// Runs once when a Next.js server starts (not during `next build`): with NODE_ENV=production a
// missing service setting stops the server here, naming it; the integration inspector's log goes to the database
// (every instance writes and reads it), and the retry job of queued register-purchase calls
// (lib/service/card-trade-in.ts) lives as long as the server.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { checkServiceSettingsAtStart, installIntegrationLogInDatabase, startTradeInRetryJob } =
    await import("./lib/service-adapter/service");
  checkServiceSettingsAtStart();
  installIntegrationLogInDatabase();
  startTradeInRetryJob();
}
