// Once per server start: with NODE_ENV=production a missing service setting stops the server;
// then the register-purchase retry job starts.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { assertProductionServiceSettings } = await import("@service-integration/kit/server");
  assertProductionServiceSettings();
  const { startRetryJob } = await import("@mini/lib/service/wiring");
  startRetryJob();
}
