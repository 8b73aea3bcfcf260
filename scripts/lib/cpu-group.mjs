// CPU-seconds of a group of processes, servers a command leaves to its children included: a
// kernel control group (cgroup) of its own per step or part, whose counter the kernel keeps for
// every process ever in it, whoever waited for it. A parent's wait() accounting (`measure`,
// rusage) counts only the children it waited for, and /proc sampling misses processes that end
// between two samples. cgroup v1's cpuacct controller where a machine has it (this project's
// machine), v2's cpu.stat otherwise; where neither can be written (no root, a read-only
// /sys/fs/cgroup) `cpuGroups` returns null and callers print no figure.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";

/** The writable hierarchy that counts CPU, and the group this process is in there. */
function hierarchy(root) {
  let own;
  try {
    own = readFileSync("/proc/self/cgroup", "utf8").split("\n");
  } catch {
    return null;
  }
  // v1: "2:cpuacct:/path" (or "2:cpu,cpuacct:/path"), mounted at <root>/cpuacct.
  const v1 = own.map((line) => line.split(":")).find((f) => f[1]?.split(",").includes("cpuacct"));
  if (v1 && existsSync(path.join(root, "cpuacct", "cpuacct.usage"))) {
    return {
      base: path.join(root, "cpuacct", v1.slice(2).join(":")),
      // nanoseconds
      read: (dir) => Number(readFileSync(path.join(dir, "cpuacct.usage"), "utf8")) / 1e9,
      counter: "cpuacct.usage",
    };
  }
  // v2: "0::/path", mounted at <root> (unified) or <root>/unified (hybrid). cpu.stat's
  // usage_usec is kept for every group, with or without the cpu controller enabled.
  const v2 = own.find((line) => line.startsWith("0::"));
  const mount = [root, path.join(root, "unified")].find((dir) =>
    existsSync(path.join(dir, "cgroup.controllers")),
  );
  if (v2 && mount) {
    return {
      base: path.join(mount, v2.slice(3)),
      read: (dir) =>
        Number(/^usage_usec (\d+)/m.exec(readFileSync(path.join(dir, "cpu.stat"), "utf8"))?.[1]) /
        1e6,
      counter: "cpu.stat",
    };
  }
  return null;
}

/**
 * A parent group named `name` under this process's own, for groups per step or part; null when
 * the machine gives no writable cgroup counting CPU. `root`: where cgroups are mounted.
 * @returns {{ group(id: string): CpuGroup, close(): void } | null}
 */
export function cpuGroups(name, { root = "/sys/fs/cgroup" } = {}) {
  const found = hierarchy(root);
  if (!found) return null;
  const parent = path.join(found.base, name);
  sweep(found.base, name);
  try {
    mkdirSync(parent, { recursive: true });
  } catch {
    return null;
  }
  const groups = [];
  const make = (id) => {
    const dir = path.join(parent, id.replace(/[^\w.-]/g, "_"));
    mkdirSync(dir, { recursive: true });
    // The kernel fills a new group's folder with its files; a plain folder is no cgroup.
    if (!existsSync(path.join(dir, found.counter))) throw new Error(`${dir} is no cgroup`);
    const procs = path.join(dir, "cgroup.procs");
    groups.push(dir);
    return {
      dir,
      /** `file args…` run so that the process enters the group before it execs (its children
       *  are born in it): a shell writes its own pid into the group, then becomes the command. */
      wrap: (file, args) => [
        "/bin/sh",
        ["-c", 'echo $$ > "$0" && exec "$@"', procs, file, ...args],
      ],
      seconds: () => found.read(dir),
    };
  };
  // One probe: a process moved into a group and counted, or no groups at all (a read-only
  // mount, a container without the right to move processes).
  try {
    const probe = make(".probe");
    const [file, args] = probe.wrap("/bin/true", []);
    if (spawnSync(file, args, { stdio: "ignore" }).status !== 0) throw new Error("not movable");
    if (!Number.isFinite(probe.seconds())) throw new Error("no counter");
  } catch {
    close();
    return null;
  }
  function close() {
    // A server left behind keeps its group busy: it goes back to this process's own group first.
    for (const dir of [...groups.reverse(), parent]) {
      try {
        for (const pid of readFileSync(path.join(dir, "cgroup.procs"), "utf8").split("\n"))
          if (pid) writeFileSync(path.join(found.base, "cgroup.procs"), pid);
      } catch {}
      try {
        rmdirSync(dir);
      } catch {}
    }
  }
  return { group: make, close };
}

/**
 * @typedef {object} CpuGroup
 * @property {string} dir
 * @property {(file: string, args: string[]) => [string, string[]]} wrap
 * @property {() => number} seconds  CPU-seconds of every process that was ever in it
 */

/** Groups `<prefix>-<pid>` of processes gone (one stopped by SIGKILL, as a web server may be,
 *  never closes its own): removed when empty, so they do not pile up. */
function sweep(base, name) {
  const match = /^(.*)-(\d+)$/.exec(name);
  if (!match) return;
  let entries;
  try {
    entries = readdirSync(base);
  } catch {
    return;
  }
  for (const entry of entries) {
    const other = /^(.*)-(\d+)$/.exec(entry);
    if (!other || other[1] !== match[1] || existsSync(`/proc/${other[2]}`)) continue;
    const dir = path.join(base, entry);
    try {
      for (const child of readdirSync(dir, { withFileTypes: true }))
        if (child.isDirectory()) rmdirSync(path.join(dir, child.name));
      rmdirSync(dir);
    } catch {}
  }
}
