// `npm run demo`: .env, database, build, then the processes of the demo, side by side: the
// shop and the bundled service emulator it integrates with (two parties, as in production).
import { loadEnv, root } from "./lib/env.mjs";
import { prepareDatabase, run } from "./lib/run.mjs";
import { supervise } from "./lib/supervise.mjs";

const PROCESSES = [
  {
    name: "emulator",
    command: process.execPath,
    args: ["node_modules/tsx/dist/cli.mjs", "emulator/src/main.ts"],
    manual: "npm run emulator",
  },
  {
    name: "storefront",
    command: process.execPath,
    args: ["node_modules/next/dist/bin/next", "start", "-p", "3000"],
    manual: "npm start",
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
supervise(PROCESSES, { cwd: root });
console.log(
  `Shop: ${process.env.SHOP_BASE_URL ?? "http://localhost:3000"}  Service emulator: ${process.env.SERVICE_API_BASE_URL ?? "http://localhost:4010"}/__emulator/  (a process that dies is restarted; Ctrl-C stops everything)`,
);
