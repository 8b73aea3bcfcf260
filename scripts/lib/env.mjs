// Shared by the demo, test and e2e scripts: make sure .env exists (copied from .env.example,
// which works as is) and load it without overriding variables already set.
import { copyFileSync, existsSync } from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");

export function loadEnv() {
  const envFile = path.join(root, ".env");
  if (!existsSync(envFile)) {
    copyFileSync(path.join(root, ".env.example"), envFile);
    console.log("Created .env from .env.example");
  }
  // process.loadEnvFile keeps variables that are already set, like Next and Node's --env-file.
  process.loadEnvFile(envFile);
  // The demo, tests and benchmarks send Next.js nothing (its anonymous usage telemetry is on by
  // default); every next build/start these scripts spawn inherits this.
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
}
