// `npm run demo`: .env, database, build, then the processes of the demo, side by side: the
// shop and the bundled service emulator it integrates with (two parties, as in production).
import { spawn } from "node:child_process";
import { loadEnv, root } from "./lib/env.mjs";
import { prepareDatabase, printPrefixed, run } from "./lib/run.mjs";

const PROCESSES = [
  {
    name: "emulator",
    command: process.execPath,
    args: ["node_modules/tsx/dist/cli.mjs", "emulator/src/main.ts"],
  },
  {
    name: "storefront",
    command: process.execPath,
    args: ["node_modules/next/dist/bin/next", "start", "-p", "3000"],
  },
];

loadEnv();
console.log("━━━ Database: migrate and seed");
prepareDatabase();
if (!process.argv.includes("--no-build")) {
  console.log("━━━ Build");
  run(process.execPath, ["node_modules/next/dist/bin/next", "build"]);
}
console.log(`━━━ Starting: ${PROCESSES.map((p) => p.name).join(", ")}`);
startAll(PROCESSES);
console.log(
  `Shop: ${process.env.SHOP_BASE_URL ?? "http://localhost:3000"}  Service emulator: ${process.env.SERVICE_API_BASE_URL ?? "http://localhost:4010"}/__emulator/  (Ctrl-C stops everything)`,
);

/** Starts every process, prefixes its output, and stops all when one exits or on Ctrl-C. */
function startAll(processes) {
  const width = Math.max(...processes.map((p) => p.name.length));
  const children = [];
  let stopping = false;
  const stopAll = (code) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
    setTimeout(() => process.exit(code), 500).unref();
  };
  for (const p of processes) {
    const child = spawn(p.command, p.args, {
      cwd: root,
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const prefix = `[${p.name.padEnd(width)}] `;
    printPrefixed(prefix, child);
    child.on("exit", (code, signal) => {
      if (!stopping) console.log(`${prefix}exited (${signal ?? code}); stopping the others`);
      stopAll(code ?? 1);
    });
    children.push(child);
  }
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stopAll(0));
}
