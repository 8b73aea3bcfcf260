// `npm run demo`: install, .env, database, build, then the processes of the demo, side by side:
// the shop and the bundled service emulator it integrates with (two parties, as in production).
// Started twice, it says where the running demo is and exits (code 1) before touching anything.
// It keeps out of the browser suites' way, and they out of its: its own build folder
// (`.next-demo`; the suites serve `.next`), its own database (dev.db) and its own ports (3000 and
// 4010 from .env; the suites' stacks use 3800 and 4800 and up, e2e/support/stack.ts).
//
//   node scripts/demo.mjs [--no-install] [--no-build]
import { existsSync } from "node:fs";
import path from "node:path";
import { claimDemo, demoAddresses, portTaken } from "./lib/demo-lock.mjs";
import { loadEnv, root } from "./lib/env.mjs";
import { prepareDatabase, run } from "./lib/run.mjs";
import { supervise } from "./lib/supervise.mjs";

/** The demo's build folder (next.config.ts builds and serves it when SHOP_DIST_DIR names it). */
const DIST_DIR = ".next-demo";

loadEnv();
const demo = demoAddresses();
const holder = claimDemo(demo);
if (holder) {
  console.error(
    holder.pid > 0
      ? `The demo is already running at ${holder.shopUrl} (pid ${holder.pid}; service emulator ${holder.emulatorUrl}/__emulator/), ` +
          `started ${holder.startedAt}. Nothing was changed. Ctrl-C in its terminal (or kill ${holder.pid}) stops it.`
      : "Another demo of this checkout is starting right now; nothing was changed.",
  );
  process.exit(1);
}
for (const [port, what, url] of [
  [demo.shopPort, "shop", demo.shopUrl],
  [demo.emulatorPort, "service emulator", demo.emulatorUrl],
]) {
  if (await portTaken(port)) {
    console.error(
      `Port ${port} (the demo's ${what}, ${url}) is taken by another program, not this checkout's demo ` +
        `(another checkout's demo, npm run dev or npm start?). Stop it first; nothing was changed.`,
    );
    process.exit(1);
  }
}

if (!process.argv.includes("--no-install")) {
  console.log("━━━ Install");
  run("npm", ["install", "--no-audit", "--no-fund"]);
}
console.log("━━━ Database: migrate and seed");
prepareDatabase();
process.env.SHOP_DIST_DIR = DIST_DIR;
if (!process.argv.includes("--no-build")) {
  console.log(`━━━ Build (${DIST_DIR})`);
  run(process.execPath, ["node_modules/next/dist/bin/next", "build"]);
} else if (!existsSync(path.join(root, DIST_DIR, "BUILD_ID"))) {
  console.error(`--no-build, but there is no demo build in ${DIST_DIR} yet: run without it once.`);
  process.exit(1);
}

const PROCESSES = [
  {
    name: "emulator",
    command: process.execPath,
    args: [
      "node_modules/tsx/dist/cli.mjs",
      "emulator/src/main.ts",
      "--port",
      String(demo.emulatorPort),
    ],
    manual: `npm run emulator -- --port ${demo.emulatorPort}`,
  },
  {
    name: "storefront",
    command: process.execPath,
    args: ["node_modules/next/dist/bin/next", "start", "-p", String(demo.shopPort)],
    manual: `SHOP_DIST_DIR=${DIST_DIR} npx next start -p ${demo.shopPort}`,
  },
];
console.log(`━━━ Starting: ${PROCESSES.map((p) => p.name).join(", ")}`);
supervise(PROCESSES, { cwd: root });
console.log(
  `Shop: ${demo.shopUrl}  Service emulator: ${demo.emulatorUrl}/__emulator/  (a process that dies is restarted; Ctrl-C stops everything)`,
);
