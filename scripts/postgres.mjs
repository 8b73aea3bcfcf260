// PostgreSQL for several shop instances, with no step by hand: Debian's `postgresql` package
// (installed with apt-get when missing, as ensure-browser.mjs does for Chromium), a cluster in
// the git-ignored `.postgres/` folder (or, when the checkout lies where the `postgres` user may
// not go, such as a private temporary folder, /var/tmp/shop-postgres-<checkout hash>), listening
// on 127.0.0.1 only on a port of its own
// (POSTGRES_PORT, 5499 by default; never Debian's 5432), trust authentication for local use.
//
//   node scripts/postgres.mjs start [db …]   start (initialising the cluster the first time) and
//                                            create the named databases; prints their URLs
//   node scripts/postgres.mjs reset db …     drop and create the named databases
//   node scripts/postgres.mjs stop
//   node scripts/postgres.mjs url db         the DATABASE_URL of one database
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chownSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { aptInstall, has, isRoot } from "./lib/apt.mjs";
import { root } from "./lib/env.mjs";

export const POSTGRES_PORT = Number(process.env.POSTGRES_PORT ?? 5499);

/**
 * Where the cluster lives. Run as root, the server programs run as the `postgres` user, which
 * must reach the folder: a checkout in a folder only root may enter (mktemp -d makes them 0700)
 * gets its cluster in a folder of its own under /var/tmp, one per checkout, so `start`, `stop`
 * and `url` of the same checkout always agree.
 */
function clusterFolder() {
  const inCheckout = path.join(root, ".postgres");
  if (!isRoot || existsSync(inCheckout) || postgresMayEnter(root)) return inCheckout;
  const id = createHash("sha256").update(root).digest("hex").slice(0, 12);
  return path.join("/var/tmp", `shop-postgres-${id}`);
}

function postgresMayEnter(dir) {
  return spawnSync("runuser", ["-u", "postgres", "--", "test", "-x", dir]).status === 0;
}

let folder;
let dataDir;
let logFile;
/** Settles the folder once the server (and so the postgres user) is installed. */
function locate() {
  folder ??= clusterFolder();
  dataDir = path.join(folder, "data");
  logFile = path.join(folder, "postgres.log");
}

/** The connection string of one database of the cluster. */
export function postgresUrl(database) {
  return `postgresql://postgres@127.0.0.1:${POSTGRES_PORT}/${database}`;
}

/** Debian keeps the server programs in /usr/lib/postgresql/<major>/bin, off the PATH. */
function serverBin() {
  const base = "/usr/lib/postgresql";
  if (existsSync(base)) {
    const majors = readdirSync(base)
      .filter((v) => existsSync(path.join(base, v, "bin/pg_ctl")))
      .sort((a, b) => Number(b) - Number(a));
    if (majors.length > 0) return path.join(base, majors[0], "bin");
  }
  if (has("pg_ctl") && has("initdb")) return "";
  return null;
}

/** Installs Debian's postgresql when its server programs are missing; returns their folder. */
export function ensurePostgresInstalled() {
  let bin = serverBin();
  if (bin !== null) return bin;
  aptInstall("postgresql");
  bin = serverBin();
  if (bin === null) throw new Error("postgresql installed, but pg_ctl was not found");
  return bin;
}

/** Runs a server program, as the `postgres` user when we are root (initdb refuses root). */
function runServerProgram(bin, program, args, { check = true } = {}) {
  const command = path.join(bin, program);
  const result = isRoot
    ? spawnSync("runuser", ["-u", "postgres", "--", command, ...args], { encoding: "utf8" })
    : spawnSync(command, args, { encoding: "utf8" });
  if (check && result.status !== 0) {
    throw new Error(`${program} failed:\n${result.stdout}${result.stderr}`);
  }
  return result;
}

function isRunning(bin) {
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) return false;
  return runServerProgram(bin, "pg_ctl", ["-D", dataDir, "status"], { check: false }).status === 0;
}

/** Starts the cluster (creating it the first time); safe to call when it already runs. True
 *  when this call started it (so the caller may stop it when done). */
export function startPostgres() {
  const bin = ensurePostgresInstalled();
  locate();
  mkdirSync(folder, { recursive: true });
  if (isRoot) chownSync(folder, postgresIds().uid, postgresIds().gid);
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    runServerProgram(bin, "initdb", [
      "-D",
      dataDir,
      "-U",
      "postgres",
      "--auth=trust",
      "-E",
      "UTF8",
      "--locale=C.UTF-8",
    ]);
  }
  if (isRunning(bin)) return false;
  if (portTaken(POSTGRES_PORT)) {
    throw new Error(
      `Port ${POSTGRES_PORT} is taken by another server (another checkout's PostgreSQL?). ` +
        "Stop it, or set POSTGRES_PORT to a free port.",
    );
  }
  // TCP on 127.0.0.1 only, no Unix socket (its default folder may not exist or be writable).
  // 200 connections: every shop instance keeps a pool of up to 10, tests open a few more.
  const options = `-p ${POSTGRES_PORT} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=200`;
  runServerProgram(bin, "pg_ctl", ["-D", dataDir, "-l", logFile, "-w", "-o", options, "start"]);
  return true;
}

/** Whether something listens on 127.0.0.1:port (checked in a child so it stays synchronous). */
function portTaken(port) {
  const probe = `require("node:net").connect(${port}, "127.0.0.1")
    .on("connect", () => process.exit(0)).on("error", () => process.exit(1));`;
  return spawnSync(process.execPath, ["-e", probe], { timeout: 5_000 }).status === 0;
}

function postgresIds() {
  const stat = statSync(dataDir, { throwIfNoEntry: false });
  if (stat) return { uid: stat.uid, gid: stat.gid };
  const id = (flag) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout);
  return { uid: id("-u"), gid: id("-g") };
}

export function stopPostgres() {
  const bin = serverBin();
  if (bin === null) return;
  locate();
  if (!isRunning(bin)) return;
  runServerProgram(bin, "pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]);
}

async function withAdmin(fn) {
  const client = new pg.Client({ connectionString: postgresUrl("postgres") });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const safeName = (name) => {
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Bad database name: ${name}`);
  return name;
};

/** Creates each database that does not exist yet. */
export async function createDatabases(names) {
  await withAdmin(async (client) => {
    for (const name of names.map(safeName)) {
      const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
    }
  });
}

/** Drops (closing its connections) and creates each database: a fresh, empty one. */
export async function resetDatabases(names) {
  await withAdmin(async (client) => {
    for (const name of names.map(safeName)) {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${name}"`);
    }
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, ...names] = process.argv.slice(2);
  if (command === "start") {
    startPostgres();
    await createDatabases(names);
    console.log(`PostgreSQL on 127.0.0.1:${POSTGRES_PORT} (${dataDir})`);
    for (const name of names) console.log(postgresUrl(name));
  } else if (command === "reset") {
    startPostgres();
    await resetDatabases(names);
  } else if (command === "stop") {
    stopPostgres();
  } else if (command === "url" && names[0]) {
    console.log(postgresUrl(safeName(names[0])));
  } else {
    console.error("usage: node scripts/postgres.mjs start [db …] | reset db … | stop | url db");
    process.exit(2);
  }
}
