// Every stack of the browser suite at once (playwright.config.ts's one web server): for each
// stack in E2E_STACKS (JSON, from e2e/support/stack.ts), its storefront (scripts/e2e-server.mjs:
// a fresh database, then `next start`) and, unless a staging service stands in, its emulator.
// Playwright starts the servers of a `webServer` list one after another, each once the one before
// answers; here the emulators start while one database is migrated and seeded, every shop gets a
// copy of it and they start together: two stacks are up in about 3 s instead of 8 s. Once every
// server answers, this script says so on its output ("every stack answers"): what Playwright
// waits for (webServer.wait), at once rather than at its next poll. A server that stops before
// the run ends stops this script, with its code.
//
// Each part of the start (migrate, seed, every server until it answers) runs in a cgroup of its
// own where the machine allows (./lib/cpu-group.mjs): the closing line and the "still waiting"
// lines give its CPU-seconds beside its wall time, so a slow start shows whether a part lacked
// the CPU (wall far above CPU) or had work to do. E2E_STACKS_TIMES=<file>: those figures as
// JSON (scripts/stack-start-cost.mjs).
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { answers } from "./lib/answers.mjs";
import { cpuGroups } from "./lib/cpu-group.mjs";
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

const groups = cpuGroups(`e2e-stacks-${process.pid}`);
process.on("exit", () => groups?.close());
/** A part's cgroup, or none (no figure) where the machine gives none. */
const partGroups = new Map();
function groupOf(part) {
  try {
    if (groups && !partGroups.has(part)) partGroups.set(part, groups.group(part));
  } catch {}
  return partGroups.get(part);
}
const cpuOf = (part) => {
  try {
    return partGroups.get(part)?.seconds();
  } catch {
    return undefined;
  }
};
const cpuText = (part) => {
  const seconds = cpuOf(part);
  return seconds === undefined ? "" : `, ${seconds.toFixed(1)} CPU-s`;
};

/** The seeded database every shop starts from, a copy each (one migrate and seed for all).
 *  E2E_DATABASE_TEMPLATE: a seeded database made before (npm test makes one in its test-build
 *  step, scripts/e2e-template.mjs), copied as it is: a suite's start then migrates and seeds
 *  nothing, about 40% of its CPU (docs/decisions/test-graph.md, "The stacks' start"). */
function prepareShopDatabases() {
  loadEnv();
  const given = process.env.E2E_DATABASE_TEMPLATE;
  if (given && !existsSync(path.resolve(root, given))) {
    console.error(`E2E_DATABASE_TEMPLATE names no file: ${given}`);
    process.exit(2);
  }
  const template = given ?? `e2e-template-${process.pid}.db`;
  const walls = given
    ? { migrateMs: 0, seedMs: 0 }
    : prepareDatabase(`file:./${template}`, {
        fresh: true,
        wrap: (part) => groupOf(part)?.wrap,
      });
  for (const server of servers) {
    if (!server.databaseFile) continue;
    for (const suffix of ["-journal", "-wal", "-shm"]) {
      rmSync(path.resolve(root, server.databaseFile + suffix), { force: true });
    }
    copyFileSync(path.resolve(root, template), path.resolve(root, server.databaseFile));
  }
  if (!given)
    for (const suffix of ["", "-journal", "-wal", "-shm"]) {
      rmSync(path.resolve(root, template + suffix), { force: true });
    }
  return walls;
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
  const wrap = groupOf(server.name)?.wrap;
  const [file, args] = wrap ? wrap(server.command, server.args) : [server.command, server.args];
  const child = spawn(file, args, {
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
  server.startedAt = Date.now();
}
// The emulators start first and come up while the database is prepared (which blocks this
// script, not them); then every shop.
for (const server of servers) if (!server.databaseFile) start(server);
const preparing = Date.now();
const walls = prepareShopDatabases();
const prepared = Date.now() - preparing;
for (const server of servers) if (server.databaseFile) start(server);

/** One poll of a server (./lib/answers.mjs: a deadline that always ends the request, which
 *  fetch with AbortSignal.timeout did not); how far it got stays on the server for the
 *  "still waiting" line. */
const poll = (server) =>
  answers(server.url, {
    onStage: (stage) => {
      server.attempt = { began: server.attempt?.began ?? Date.now(), stage };
    },
  }).finally(() => {
    server.attempt = undefined;
  });
const attemptText = (server) =>
  server.attempt
    ? `; its request of ${((Date.now() - server.attempt.began) / 1000).toFixed(0)} s ago: ${server.attempt.stage}`
    : "";

// Each server is asked every 100 ms until it answers. Playwright shows only this script's
// standard error (its standard output is read for the line below), so what it still waits for
// goes there, every 15 s after the first 30: a start that stalls names the server it waits on.
const began = Date.now();
const answeredAfter = new Map();
/** A server's CPU-seconds when it first answered: its start's cost. */
const cpuWhenAnswered = new Map();
const waiting = setInterval(() => {
  const seconds = (Date.now() - began) / 1000;
  if (seconds < 30) return;
  const left = servers.filter((server) => !answeredAfter.has(server));
  console.error(
    `still waiting after ${seconds.toFixed(0)} s for: ${left.map((s) => `${s.name} (${s.url}${cpuText(s.name)} so far${attemptText(s)})`).join(", ")}`,
  );
}, 15_000);
await Promise.all(
  servers.map(async (server) => {
    while (!(await poll(server))) await new Promise((done) => setTimeout(done, 100));
    answeredAfter.set(server, (Date.now() - began) / 1000);
    cpuWhenAnswered.set(server, cpuOf(server.name));
    server.answeredAt = Date.now();
  }),
);
clearInterval(waiting);
const cpuAt = (server) => {
  const seconds = cpuWhenAnswered.get(server);
  return seconds === undefined ? "" : `, ${seconds.toFixed(1)} CPU-s`;
};
console.error(
  `stacks up: databases prepared in ${(prepared / 1000).toFixed(1)} s (migrate ${(walls.migrateMs / 1000).toFixed(1)} s${cpuText("migrate")}, seed ${(walls.seedMs / 1000).toFixed(1)} s${cpuText("seed")}), then ${servers
    .map((server) => `${server.name} ${answeredAfter.get(server).toFixed(1)} s${cpuAt(server)}`)
    .join(", ")}`,
);
if (process.env.E2E_STACKS_TIMES) {
  const part = (wallMs, cpu) => ({ wall: wallMs / 1000, cpu: cpu ?? null });
  writeFileSync(
    process.env.E2E_STACKS_TIMES,
    JSON.stringify({
      migrate: part(walls.migrateMs, cpuOf("migrate")),
      seed: part(walls.seedMs, cpuOf("seed")),
      servers: Object.fromEntries(
        servers.map((server) => [
          server.name,
          part(server.answeredAt - server.startedAt, cpuWhenAnswered.get(server)),
        ]),
      ),
      total: (Date.now() - preparing) / 1000,
    }),
  );
}
// Last, so that whoever reads this line finds the figures above written.
console.log(`every stack answers: ${servers.map((server) => server.url).join(" ")}`);
