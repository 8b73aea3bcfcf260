// Child processes of the benchmarks: started with their output kept (printed when a run fails),
// stopped with SIGTERM and awaited.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";

/** Starts `command` with `env` added to ours; `child.log()` gives its output so far. */
export function start(command, args, env, cwd) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: "pipe" });
  let log = "";
  child.stdout.on("data", (d) => {
    log += d;
  });
  child.stderr.on("data", (d) => {
    log += d;
  });
  child.log = () => log;
  return child;
}

export function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** A TCP port nothing listens on now (the system picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * CPU time a process and its descendants have used, in milliseconds (Linux /proc: user + system
 * ticks); NaN elsewhere. Per request it is the figure a busier or quieter machine moves least:
 * req/s on a shared machine moves by ±20 % between runs, the CPU a request costs much less.
 */
export function cpuMsOf(pid) {
  if (pid === undefined || !existsSync("/proc/self/stat")) return Number.NaN;
  const stats = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The fields after the command name, which is in parentheses and may hold spaces.
      const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
      stats.set(Number(entry), {
        parent: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // The process ended while the table was read.
    }
  }
  let ticks = 0;
  const tree = [pid];
  for (const [id, stat] of stats) if (id !== pid && stat.parent === pid) tree.push(id);
  for (let i = 1; i < tree.length; i++) {
    for (const [id, stat] of stats)
      if (stat.parent === tree[i] && !tree.includes(id)) tree.push(id);
  }
  for (const id of tree) ticks += stats.get(id)?.ticks ?? 0;
  // USER_HZ is 100 on Linux.
  return ticks * 10;
}
