// The storefront as the browser tests see it: a fresh database (DATABASE_URL, e2e.db by
// default), migrated and seeded, then the production build with `next start` (on --port, 3800
// by default: the first stack's, never the demo's 3000; e2e/support/stack.ts).
import { spawn } from "node:child_process";
import { loadEnv, root } from "./lib/env.mjs";
import { prepareDatabase } from "./lib/run.mjs";

const portIndex = process.argv.indexOf("--port");
const port = portIndex > 0 ? process.argv[portIndex + 1] : "3800";
process.env.DATABASE_URL ??= "file:./e2e.db";
loadEnv();
// --prepared: scripts/e2e-stacks.mjs has put a seeded copy there already.
if (!process.argv.includes("--prepared"))
  prepareDatabase(process.env.DATABASE_URL, { fresh: true });

const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", port], {
  cwd: root,
  stdio: "inherit",
  env: process.env,
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
