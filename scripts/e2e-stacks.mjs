// Every stack of the browser suite at once (playwright.config.ts's one web server): for each
// stack in E2E_STACKS (JSON, from e2e/support/stack.ts), its storefront (scripts/e2e-server.mjs:
// a fresh database, then `next start`) and, unless a staging service stands in, its emulator.
// Playwright starts the servers of a `webServer` list one after another, each once the one before
// answers; here the emulators start while one database is migrated and seeded, every shop gets a
// copy of it and they start together: two stacks are up in about 3 s instead of 8 s. Once every
// server answers, this script says so on its output ("every stack answers"): what Playwright
// waits for (webServer.wait), at once rather than at its next poll. A server that stops before
// the run ends stops this script, with its code.
import { spawn } from "node:child_process";
import { copyFileSync, rmSync } from "node:fs";
import path from "node:path";
import { loadEnv, root } from "./lib/env.mjs";
import { prepareDatabase, printPrefixed } from "./lib/run.mjs";

const stacks = JSON.parse(process.env.E2E_STACKS ?? "[]");
if (!Array.isArray(stacks) || stacks.length === 0) {
  console.error("usage: E2E_STACKS='[…]' node scripts/e2e-stacks.mjs");
  process.exit(2);
}

/** The servers to start: name, command, arguments, environment, the URL that answers once it is
 *  ready, and for a shop its database file. */
const servers = stacks.flatMap((stack) => {
  const shop = {
    name: `storefront ${stack.index + 1}`,
    command: process.execPath,
    args: ["scripts/e2e-server.mjs", "--port", String(stack.shopPort), "--prepared"],
    env: {
      DATABASE_URL: `file:./${stack.databaseFile}`,
      ...(stack.emulatorPort > 0
        ? {
            SHOP_BASE_URL: stack.shopUrl,
            SERVICE_API_BASE_URL: stack.emulatorUrl,
            SERVICE_ASSETS_URL: stack.assetsUrl,
          }
        : {}),
    },
    url: `${stack.shopUrl}/`,
    databaseFile: stack.databaseFile,
  };
  if (!(stack.emulatorPort > 0)) return [shop];
  return [
    shop,
    {
      name: `emulator ${stack.index + 1}`,
      // tsx itself, not `npm run emulator`: npm does not pass a SIGTERM on to tsx, so a stopped
      // stack left its emulators on their ports (tsx passes it to the emulator).
      command: process.execPath,
      args: ["node_modules/tsx/dist/cli.mjs", "emulator/src/main.ts"],
      env: { EMULATOR_PORT: String(stack.emulatorPort), EMULATOR_SHOP_URL: stack.shopUrl },
      url: `${stack.emulatorUrl}/__emulator/health`,
    },
  ];
});

/** The seeded database every shop starts from, a copy each (one migrate and seed for all). */
function prepareShopDatabases() {
  loadEnv();
  const template = `e2e-template-${process.pid}.db`;
  prepareDatabase(`file:./${template}`, { fresh: true });
  for (const server of servers) {
    if (!server.databaseFile) continue;
    for (const suffix of ["-journal", "-wal", "-shm"]) {
      rmSync(path.resolve(root, server.databaseFile + suffix), { force: true });
    }
    copyFileSync(path.resolve(root, template), path.resolve(root, server.databaseFile));
  }
  for (const suffix of ["", "-journal", "-wal", "-shm"]) {
    rmSync(path.resolve(root, template + suffix), { force: true });
  }
}

const children = [];
let stopping = false;
function stop(code) {
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  process.exit(code);
}
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(0));

function start(server) {
  const child = spawn(server.command, server.args, {
    cwd: root,
    env: { ...process.env, ...server.env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  // Its errors reach the run's output, line by line, under its name.
  printPrefixed(`[${server.name}] `, child, process.stderr);
  child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`[${server.name}] stopped (${signal ?? `exit ${code}`}) before the run ended`);
    stop(code || 1);
  });
  children.push(child);
}
// The emulators start first and come up while the database is prepared (which blocks this
// script, not them); then every shop.
for (const server of servers) if (!server.databaseFile) start(server);
const preparing = Date.now();
prepareShopDatabases();
const prepared = Date.now() - preparing;
for (const server of servers) if (server.databaseFile) start(server);

async function answers(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await response.arrayBuffer();
    return response.status < 500;
  } catch {
    return false;
  }
}

// Each server is asked every 100 ms until it answers. Playwright shows only this script's
// standard error (its standard output is read for the line below), so what it still waits for
// goes there, every 15 s after the first 30: a start that stalls names the server it waits on.
const began = Date.now();
const answeredAfter = new Map();
const waiting = setInterval(() => {
  const seconds = (Date.now() - began) / 1000;
  if (seconds < 30) return;
  const left = servers.filter((server) => !answeredAfter.has(server));
  console.error(
    `still waiting after ${seconds.toFixed(0)} s for: ${left.map((s) => `${s.name} (${s.url})`).join(", ")}`,
  );
}, 15_000);
await Promise.all(
  servers.map(async (server) => {
    while (!(await answers(server.url))) await new Promise((done) => setTimeout(done, 100));
    answeredAfter.set(server, (Date.now() - began) / 1000);
  }),
);
clearInterval(waiting);
console.log(`every stack answers: ${servers.map((server) => server.url).join(" ")}`);
console.error(
  `stacks up: databases prepared in ${(prepared / 1000).toFixed(1)} s, then ${servers
    .map((server) => `${server.name} ${answeredAfter.get(server).toFixed(1)} s`)
    .join(", ")}`,
);
