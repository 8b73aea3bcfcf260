// CPU-seconds for the release report: of one suite's process tree (Playwright, its workers, the
// browsers they launch, the storefronts and emulators its web server starts) and of the whole
// machine. Linux only (/proc); elsewhere the report says "not measured".
//
// Why sampled: a process's own rusage counts only the children it waited for, and most of
// Chromium's processes are not among them (a wrapper like `measure` printed 181 CPU-s for a
// run that kept both cores busy for 279 s). So the tree is read from /proc twice a second and
// every process's last seen utime + stime is added up; a process's last half second before it
// exits can be missed, so the figure is a lower bound, within a few percent here.
import { readdirSync, readFileSync } from "node:fs";

/** Kernel clock ticks per second (USER_HZ): 100 on every Linux Node runs on. */
const TICKS_PER_SECOND = 100;
const SAMPLE_MS = 500;

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime, in ticks */
  ticks: number;
  /** start time since boot, in ticks: with the pid, names one process even if the pid is reused */
  start: string;
}

/** Parses /proc/<pid>/stat; the command name (2nd field) may hold spaces and parentheses. */
export function parseProcStat(pid: number, text: string): ProcStat | null {
  const close = text.lastIndexOf(")");
  if (close < 0) return null;
  const fields = text.slice(close + 2).split(" ");
  // After the name: state(3) ppid(4) … utime(14) stime(15) … starttime(22), here from index 0 = field 3.
  const ppid = Number(fields[1]);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  const start = fields[19] ?? "";
  if (![ppid, utime, stime].every(Number.isFinite)) return null;
  return { pid, ppid, ticks: utime + stime, start };
}

function readAll(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = parseProcStat(Number(name), readFileSync(`/proc/${name}/stat`, "utf8"));
      if (stat) out.push(stat);
    } catch {
      // gone between the listing and the read
    }
  }
  return out;
}

/** The processes under `root` (itself included) in one snapshot. */
export function treeOf(root: number, all: ProcStat[]): ProcStat[] {
  const children = new Map<number, ProcStat[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: ProcStat[] = [];
  const stack = all.filter((p) => p.pid === root);
  while (stack.length > 0) {
    const p = stack.pop() as ProcStat;
    out.push(p);
    stack.push(...(children.get(p.pid) ?? []));
  }
  return out;
}

export interface CpuMeter {
  /** Stops sampling; the CPU-seconds seen, or null where /proc cannot be read. */
  stop(): number | null;
}

const measurable = (() => {
  try {
    readFileSync("/proc/self/stat", "utf8");
    return true;
  } catch {
    return false;
  }
})();

/** Samples the process tree of `root` until stopped. */
export function treeCpuMeter(root: number | undefined): CpuMeter {
  if (!measurable || root === undefined) return { stop: () => null };
  const seen = new Map<string, number>();
  const sample = () => {
    for (const p of treeOf(root, readAll())) {
      const key = `${p.pid}@${p.start}`;
      seen.set(key, Math.max(seen.get(key) ?? 0, p.ticks));
    }
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      sample();
      let ticks = 0;
      for (const t of seen.values()) ticks += t;
      return ticks / TICKS_PER_SECOND;
    },
  };
}

/** The machine's busy CPU-seconds so far (user, nice, system, irq, softirq of /proc/stat). */
export function machineCpuSeconds(): number | null {
  if (!measurable) return null;
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const [, user, nice, system, , , irq, softirq] = line.trim().split(/\s+/).map(Number);
  const busy = [user, nice, system, irq, softirq].reduce<number>((sum, n) => sum + (n ?? 0), 0);
  return busy / TICKS_PER_SECOND;
}
