import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { createEmulator, DEFAULT_CONFIG } from "./app";
import { servedSdk } from "./sdk-api/routes";
import { loadState, parseSavedState, type SavedState, saveState } from "./state/saved";
import { seedForShop } from "./state/seed";

// CLI: `npm run emulator -- [--port 4010] [--host HOST] [--state FILE] [--import FILE]
// [--export FILE] [--log] [--sdk PATH|URL] [--shop-url URL] [--control-host NAME …]` (or, from
// the tarball, `npx service-emulator …`). EMULATOR_PORT / EMULATOR_HOST / EMULATOR_STATE /
// EMULATOR_IMPORT / EMULATOR_EXPORT / EMULATOR_SDK / EMULATOR_SHOP_URL / EMULATOR_CONTROL_HOSTS
// (comma-separated) work as well.

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    host: { type: "string" },
    state: { type: "string" },
    import: { type: "string" },
    export: { type: "string" },
    log: { type: "boolean", default: false },
    sdk: { type: "string" },
    "shop-url": { type: "string" },
    "control-host": { type: "string", multiple: true },
  },
});

const port = Number(values.port ?? process.env.EMULATOR_PORT ?? 4010);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`Invalid port: ${values.port ?? process.env.EMULATOR_PORT}`);
  process.exit(2);
}
// Loopback only unless asked: the journal holds shoppers' personal data and the control API
// resets state, moves the clock and injects faults.
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);
const host = values.host ?? process.env.EMULATOR_HOST ?? "127.0.0.1";
if (!LOOPBACK.has(host)) {
  console.warn(
    `[emulator] WARNING: listening on ${host}, not only on this machine. Anyone who can reach it ` +
      "can read the journal (shoppers' personal data) and drive the control API.",
  );
}
// The control API answers loopback names, the name it was told to listen on, and any name given
// with --control-host: a foreign name pointed at this machine (DNS rebinding) gets 403.
const controlHosts = [
  ...DEFAULT_CONFIG.controlHosts,
  ...(LOOPBACK.has(host) || host === "0.0.0.0" || host === "::"
    ? []
    : [host.includes(":") ? `[${host}]` : host]),
  ...(values["control-host"] ?? []),
  ...(process.env.EMULATOR_CONTROL_HOSTS?.split(",") ?? []),
]
  .map((name) => name.trim().toLowerCase())
  .filter(Boolean);
const stateFile = values.state ?? process.env.EMULATOR_STATE;
const importFile = values.import ?? (process.env.EMULATOR_IMPORT || undefined);
const exportFile = values.export ?? (process.env.EMULATOR_EXPORT || undefined);

/** Reads a snapshot file (--state, --import); a file that is not one stops the emulator. */
function readSnapshot(file: string, flag: string): SavedState {
  let parsed: ReturnType<typeof parseSavedState>;
  try {
    parsed = parseSavedState(readFileSync(file, "utf8"));
  } catch (err) {
    console.error(`[emulator] cannot read ${flag} ${file}:`, err);
    process.exit(2);
  }
  if (!parsed.ok) {
    console.error(`[emulator] ${flag} ${file} is not a valid snapshot: ${parsed.error}`);
    process.exit(2);
  }
  return parsed.value;
}

// --import loads a snapshot at start (the file must exist); --state loads one if it exists.
// With both, --import wins at start; on exit each of --state and --export gets the state.
const saved: SavedState | undefined = importFile
  ? readSnapshot(importFile, "--import")
  : stateFile && existsSync(stateFile)
    ? readSnapshot(stateFile, "--state")
    : undefined;

const sdk = values.sdk ?? (process.env.EMULATOR_SDK || undefined);
// The seed's merchants serve the storefront at http://localhost:3000 unless told otherwise (a
// second test stack, or a load balancer in front of several shop instances).
const shopUrl = values["shop-url"] ?? (process.env.EMULATOR_SHOP_URL || undefined);
const emulator = createEmulator({
  config: { log: values.log ?? false, controlHosts, ...(sdk ? { sdk } : {}) },
  ...(shopUrl ? { seed: seedForShop(shopUrl) } : {}),
  // Ids keep their saved prefix and counters across restarts with --state.
  ...(saved?.state.id_prefix !== undefined ? { idPrefix: saved.state.id_prefix } : {}),
});
if (sdk) {
  // A candidate that cannot be loaded must stop the run, never fall back to the built-in SDK.
  try {
    await servedSdk(emulator.ctx);
  } catch (err) {
    console.error(`[emulator] cannot load the SDK candidate ${sdk}:`, err);
    process.exit(2);
  }
}

if (saved) {
  loadState(emulator.ctx, saved);
  console.log(`[emulator] state loaded from ${importFile ?? stateFile}`);
}

const running = await emulator.listen(port, host);
console.log(`[emulator] service API on ${running.url}  (inspector: ${running.url}/__emulator/)`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  const files = [...new Set([stateFile, exportFile].filter((f): f is string => Boolean(f)))];
  if (files.length > 0) {
    const text = JSON.stringify(saveState(emulator.ctx), null, 2);
    for (const file of files) {
      writeFileSync(file, text);
      console.log(`[emulator] state saved to ${file}`);
    }
  }
  await running.close();
  console.log(`[emulator] stopped (${signal})`);
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
