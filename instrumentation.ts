// Runs once when a Next.js server starts (not during `next build`). With NODE_ENV=production a
// missing or invalid setting (the shop's, TRUSTED_PROXY_HOPS included, or a service setting)
// stops the process here, naming it: Next.js would otherwise keep the server up answering 500
// to every request (docs/decisions/production-settings.md). A started server says once what
// its TRUSTED_PROXY_HOPS means for the login throttle (docs/decisions/client-address.md).
// Then the integration inspector's log goes to the database (every instance writes and reads
// it), and the retry job of queued register-purchase calls (packages/kit/src/card-trade-in.ts) lives
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
  const { parseConfig, trustedProxyHopsMeaning } = await import("./lib/config");
  // Both checks run, so one refusal names every missing setting, the shop's and the service's.
  const problems = new Set<string>();
  const check = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (error) {
      problems.add(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  };
  const config = check(() => parseConfig(process.env));
  check(() => checkServiceSettingsAtStart());
  if (config === undefined || problems.size > 0) {
    console.error(`Refusing to start: ${[...problems].join("\n")}`);
    process.exit(1);
  }
  console.log(trustedProxyHopsMeaning(config.TRUSTED_PROXY_HOPS));
  installIntegrationLogInDatabase();
  startTradeInRetryJob();
  startNotificationSweep();
}
