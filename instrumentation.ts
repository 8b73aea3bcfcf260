// Runs once when a Next.js server starts: the integration inspector's log goes to the database
// (every instance writes and reads it), and the retry job of queued register-purchase calls
// (lib/service/card-trade-in.ts) lives as long as the server.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installIntegrationLogInDatabase, startTradeInRetryJob } = await import(
    "./lib/service-adapter/service"
  );
  installIntegrationLogInDatabase();
  startTradeInRetryJob();
}
