// Which `npm run demo` runs in this checkout, and whether the demo's ports are free: a second
// start says where the running one is and exits without touching it (its build, its database,
// its processes). `.demo/running.json` holds the running demo's pid and addresses, created
// exclusively, so two starts at once cannot both claim it; a file whose process is gone (the
// demo was killed with SIGKILL) is stale and replaced.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { root } from "./env.mjs";

export const DEMO_LOCK = path.join(root, ".demo", "running.json");

/** The demo's shop and emulator, from the shop's settings (.env: SHOP_BASE_URL and
 *  SERVICE_API_BASE_URL). EMULATOR_PORT, E2E_SHOP_PORT and the like move the browser suites'
 *  servers, never the demo's: its shop calls the emulator at the address .env names. */
export function demoAddresses(env = process.env) {
  const shop = new URL(env.SHOP_BASE_URL ?? "http://localhost:3000");
  const emulator = new URL(env.SERVICE_API_BASE_URL ?? "http://localhost:4010");
  const portOf = (url) => Number(url.port || (url.protocol === "https:" ? 443 : 80));
  return {
    shopUrl: shop.origin,
    shopPort: portOf(shop),
    emulatorUrl: emulator.origin,
    emulatorPort: portOf(emulator),
  };
}

/** A process with this pid exists, and on Linux it is a demo (a reused pid is not one). */
function isDemoProcess(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error.code !== "EPERM") return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("demo.mjs");
  } catch {
    return true; // no /proc (macOS): the pid alone
  }
}

function readLock(file) {
  try {
    const lock = JSON.parse(readFileSync(file, "utf8"));
    return Number.isInteger(lock?.pid) && lock.pid > 0 ? lock : null;
  } catch {
    return null;
  }
}

/** This checkout's running demo ({ pid, shopUrl, emulatorUrl, startedAt }), or null. */
export function runningDemo(file = DEMO_LOCK) {
  const lock = readLock(file);
  return lock && isDemoProcess(lock.pid) ? lock : null;
}

/** Claims the lock for this process until it exits; returns null, or the demo that holds it
 *  already. */
export function claimDemo(addresses, file = DEMO_LOCK) {
  mkdirSync(path.dirname(file), { recursive: true });
  const mine = { pid: process.pid, ...addresses, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${JSON.stringify(mine, null, 2)}\n`, { flag: "wx" });
      process.on("exit", () => releaseDemo(file));
      return null;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
    const holder = runningDemo(file);
    if (holder) return holder;
    rmSync(file, { force: true }); // stale: its process is gone
  }
  return runningDemo(file) ?? { pid: 0, ...addresses };
}

/** Removes the lock if this process holds it. */
export function releaseDemo(file = DEMO_LOCK) {
  if (readLock(file)?.pid === process.pid) rmSync(file, { force: true });
}

/** Something accepts connections on this port of this machine (IPv4 or IPv6 loopback). */
export async function portTaken(port) {
  const answers = (host) =>
    new Promise((resolve) => {
      const socket = connect({ host, port });
      socket.setTimeout(1_000);
      const done = (taken) => {
        socket.destroy();
        resolve(taken);
      };
      socket.once("connect", () => done(true));
      socket.once("error", () => done(false));
      socket.once("timeout", () => done(false));
    });
  const [v4, v6] = await Promise.all([answers("127.0.0.1"), answers("::1")]);
  return v4 || v6;
}
