// Runs once when a Next.js server starts (not during `next build`). With NODE_ENV=production a
// missing or invalid service setting stops the process here, naming it: Next.js would otherwise
// keep the server up answering 500 to every request (docs/decisions/production-settings.md).
// Then the integration inspector's log goes to the database (every instance writes and reads
// it), and the retry job of queued register-purchase calls (lib/service/card-trade-in.ts) lives
// as long as the server. Order notifications stored by the webhook but never applied (the
// process stopped between the 200 and the apply) are applied now and swept for on a timer.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const {
    checkServiceSettingsAtStart,
    installIntegrationLogInDatabase,
    startNotificationSweep,
    startTradeInRetryJob,
  } = await import("./lib/service-adapter/service");
  try {
    checkServiceSettingsAtStart();
  } catch (error) {
    console.error(`Refusing to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  installIntegrationLogInDatabase();
  startTradeInRetryJob();
  startNotificationSweep();
}
