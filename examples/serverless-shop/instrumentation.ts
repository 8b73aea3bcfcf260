// Once per instance: with NODE_ENV=production a missing service setting stops the server. No
// job timer: this host has no resident process; a scheduler calls app/api/service/jobs/*.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { assertProductionServiceSettings } = await import("@service-integration/kit/server");
  assertProductionServiceSettings();
}
