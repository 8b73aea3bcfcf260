// Shared by the demo, test and e2e scripts: make sure .env exists (copied from .env.example,
// which works as is) and load it without overriding variables already set.
import { appendFileSync, copyFileSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");

export function loadEnv() {
  const envFile = path.join(root, ".env");
  if (!existsSync(envFile)) {
    copyFileSync(path.join(root, ".env.example"), envFile);
    console.log("Created .env from .env.example");
  }
  addNewSettings(envFile, path.join(root, ".env.example"));
  // process.loadEnvFile keeps variables that are already set, like Next and Node's --env-file.
  process.loadEnvFile(envFile);
  // The demo, tests and benchmarks send Next.js nothing (its anonymous usage telemetry is on by
  // default); every next build/start these scripts spawn inherits this.
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
}

/** A .env made before a setting was added to .env.example gets that setting's demo value
 *  appended, said out loud, so a newcomer's older checkout keeps starting. */
function addNewSettings(envFile, exampleFile) {
  const names = (text) =>
    new Set([...text.matchAll(/^\s*(?:export\s+)?([A-Z_][A-Z0-9_]*)\s*=/gm)].map((m) => m[1]));
  const have = names(readFileSync(envFile, "utf8"));
  const missing = readFileSync(exampleFile, "utf8")
    .split("\n")
    .filter((line) => {
      const name = /^([A-Z_][A-Z0-9_]*)=/.exec(line)?.[1];
      return name && !have.has(name) && !(name in process.env);
    });
  if (missing.length === 0) return;
  appendFileSync(envFile, `\n# Added from .env.example\n${missing.join("\n")}\n`);
  console.log(`Added to .env from .env.example: ${missing.map((l) => l.split("=")[0]).join(", ")}`);
}
