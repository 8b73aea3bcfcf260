// Runs the demo's processes side by side. When one dies the others keep serving: the demo says
// which one died and how to start it by hand, and restarts it (after 1 s, doubling up to 30 s;
// after 5 quick deaths in a row it gives up on that one and says so). Ctrl-C stops everything.
import { spawn } from "node:child_process";

const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;
const GIVE_UP_AFTER = 5;
/** A process that ran this long before dying counts as healthy: its restart delay starts over. */
const HEALTHY_AFTER_MS = 60_000;

/**
 * @param {{ name: string, command: string, args: string[], manual: string }[]} processes
 * @param {{ cwd: string, env?: NodeJS.ProcessEnv, log?: (line: string) => void,
 *           firstDelayMs?: number, exitOnSignal?: boolean }} options
 */
export function supervise(processes, options) {
  const log = options.log ?? ((line) => process.stdout.write(`${line}\n`));
  const firstDelay = options.firstDelayMs ?? FIRST_DELAY_MS;
  const width = Math.max(...processes.map((p) => p.name.length));
  const running = new Map();
  const timers = new Set();
  let stopping = false;

  function start(p, deaths = 0) {
    const prefix = `[${p.name.padEnd(width)}] `;
    const startedAt = Date.now();
    const child = spawn(p.command, p.args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    running.set(p.name, child);
    for (const stream of [child.stdout, child.stderr]) {
      let buffer = "";
      stream.on("data", (chunk) => {
        buffer += chunk;
        const lines = buffer.split("\n");
        buffer = lines.pop() ?? "";
        for (const line of lines) log(`${prefix}${line}`);
      });
    }
    child.on("exit", (code, signal) => {
      running.delete(p.name);
      if (stopping) return;
      const streak = Date.now() - startedAt > HEALTHY_AFTER_MS ? 1 : deaths + 1;
      const others = processes.filter((o) => o.name !== p.name && running.has(o.name));
      log(
        `${prefix}DIED (${signal ?? `exit code ${code}`}).` +
          (others.length
            ? ` ${others.map((o) => o.name).join(", ")} keep${others.length === 1 ? "s" : ""} running.`
            : "") +
          ` To start it by hand: ${p.manual}`,
      );
      if (streak >= GIVE_UP_AFTER) {
        log(`${prefix}died ${streak} times in a row; not restarting it again.`);
        return;
      }
      const delay = Math.min(firstDelay * 2 ** (streak - 1), MAX_DELAY_MS);
      log(`${prefix}restarting in ${Math.round(delay / 100) / 10} s`);
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!stopping) start(p, streak);
      }, delay);
      timers.add(timer);
    });
  }

  for (const p of processes) start(p);

  const stopAll = () => {
    if (stopping) return Promise.resolve();
    stopping = true;
    for (const timer of timers) clearTimeout(timer);
    const exits = [...running.values()].map(
      (child) => new Promise((done) => child.once("exit", done)),
    );
    for (const child of running.values()) child.kill("SIGTERM");
    return Promise.all(exits);
  };
  if (options.exitOnSignal !== false) {
    for (const signal of ["SIGINT", "SIGTERM"]) {
      process.on(signal, () => {
        void stopAll();
        setTimeout(() => process.exit(0), 500).unref();
      });
    }
  }
  return { running, stop: stopAll };
}
