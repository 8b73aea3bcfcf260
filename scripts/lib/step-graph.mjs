// npm test's steps as a graph: each step names the steps it needs (a build, a database) and the
// groups it holds alone while it runs (a port range, a folder others rebuild), and runs as soon
// as those are met, beside whatever else shares nothing with it, up to `slots` at once (the cores
// this process may use: one core runs them one after the other, in the order given).
//
// A step's output goes to a file of its own (`logDir`/<id>.log, readable while it runs) and is
// printed whole when it ends, under its header, so two steps never interleave line by line; a
// started step says so on one line, so a long run shows where it is. A file, not a pipe: a server
// a step started and left behind would hold a pipe open, never its step's end. A step that fails stops every step that needs it, directly or not (reported as skipped,
// with the step it waited for); steps that do not need it still run. With `cpu` (./cpu-group.mjs),
// each step runs in a cgroup of its own and its CPU-seconds, servers it left to its children
// included, are printed beside its time.
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * @typedef {object} Step
 * @property {string} id
 * @property {string} title
 * @property {string[]} [needs]   ids of steps that must have passed first
 * @property {string[]} [holds]   groups no other running step may hold at the same time
 * @property {boolean} [alone]    a step that itself keeps every core busy: it runs with no other
 *   step beside it, and once what it needs is passed or running, no step after it in the order
 *   starts until it has run (a step started beside it would slow it and its time limits)
 * @property {(logFile: string, context: { wrap?: Wrap }) => Promise<void>} run  writes to
 *   `logFile`; rejects on failure; passes `wrap` on to `command` (the step's cgroup)
 */
/** @typedef {(file: string, args: string[]) => [string, string[]]} Wrap */

/** Runs `steps` (in priority order) on `slots` at once; resolves with each step's outcome. */
export async function runGraph(
  steps,
  { slots, logDir, cpu = null, print = (text) => process.stdout.write(text) },
) {
  mkdirSync(logDir, { recursive: true });
  const byId = new Map(steps.map((step) => [step.id, step]));
  for (const step of steps)
    for (const need of step.needs ?? [])
      if (!byId.has(need)) throw new Error(`${step.id} needs ${need}, which is no step`);
  /** @type {Map<string, { outcome: "passed" | "failed" | "skipped", seconds?: number, cpuSeconds?: number, reason?: string }>} */
  const results = new Map();
  const running = new Set();
  const held = new Set();

  const blockedBy = (step) =>
    (step.needs ?? []).find((need) => ["failed", "skipped"].includes(results.get(need)?.outcome));
  const ready = (step) =>
    !results.has(step.id) &&
    !running.has(step.id) &&
    (step.needs ?? []).every((need) => results.get(need)?.outcome === "passed") &&
    (step.holds ?? []).every((group) => !held.has(group));

  const aloneRunning = () => [...running].some((id) => byId.get(id)?.alone);
  // Not run yet, and nothing it needs is still to start: it is next once those end.
  const due = (step) =>
    !results.has(step.id) &&
    !running.has(step.id) &&
    (step.needs ?? []).every(
      (need) => results.get(need)?.outcome === "passed" || running.has(need),
    );

  return new Promise((resolve) => {
    const schedule = () => {
      // Skip what can no longer run, until nothing more is skipped (a chain of needs).
      for (let changed = true; changed; ) {
        changed = false;
        for (const step of steps) {
          if (results.has(step.id)) continue;
          const failed = blockedBy(step);
          if (failed) {
            const cause = results.get(failed)?.reason ?? failed;
            results.set(step.id, { outcome: "skipped", reason: cause });
            print(`\n↷ ${step.title}: skipped, it needs "${byId.get(failed)?.title}"\n`);
            changed = true;
          }
        }
      }
      for (const step of steps) {
        if (running.size >= slots || aloneRunning()) break;
        if (step.alone && due(step)) {
          if (ready(step) && running.size === 0) start(step);
          break;
        }
        if (ready(step)) start(step);
      }
      if (running.size > 0) return;
      // Nothing runs and nothing more can start: what is left waits on itself (a cycle).
      for (const step of steps)
        if (!results.has(step.id)) results.set(step.id, { outcome: "skipped", reason: "cycle" });
      resolve(results);
    };

    const start = (step) => {
      running.add(step.id);
      for (const group of step.holds ?? []) held.add(group);
      const began = Date.now();
      print(`▶ ${step.title} (started)\n`);
      const logFile = path.join(logDir, `${step.id}.log`);
      writeFileSync(logFile, "");
      let cgroup;
      try {
        cgroup = cpu?.group(step.id);
      } catch {}
      Promise.resolve()
        .then(() => step.run(logFile, { wrap: cgroup?.wrap }))
        .then(
          () => ({ outcome: "passed" }),
          (error) => ({ outcome: "failed", error }),
        )
        .then(({ outcome, error }) => {
          const seconds = (Date.now() - began) / 1000;
          let cpuSeconds;
          try {
            cpuSeconds = cgroup?.seconds();
          } catch {}
          running.delete(step.id);
          for (const group of step.holds ?? []) held.delete(group);
          results.set(step.id, {
            outcome,
            seconds,
            cpuSeconds,
            reason: outcome === "failed" ? step.id : undefined,
          });
          const took = `${seconds.toFixed(1)} s${cpuSeconds === undefined ? "" : `, ${cpuSeconds.toFixed(1)} CPU-s`}`;
          const header = cpuSeconds === undefined ? step.title : `${step.title} (${took})`;
          print(`\n━━━ ${header} ${"━".repeat(Math.max(3, 60 - header.length))}\n`);
          const output = readFileSync(logFile, "utf8");
          print(output.endsWith("\n") || output === "" ? output : `${output}\n`);
          print(
            outcome === "passed"
              ? `✓ ${step.title} (${took})\n`
              : `✗ ${step.title} failed (${took}): ${error?.message ?? error}\n`,
          );
          schedule();
        });
    };

    schedule();
  });
}

/**
 * Runs one command for a step: its output (stdout and stderr, in the order written) is appended
 * to `logFile`; resolves when it exits with 0, rejects otherwise. `wrap`: the step's cgroup.
 */
export function command(logFile, file, args, { wrap, ...options } = {}) {
  return new Promise((resolve, reject) => {
    const fd = openSync(logFile, "a");
    let child;
    try {
      const [run, runArgs] = wrap ? wrap(file, args) : [file, args];
      child = spawn(run, runArgs, { ...options, stdio: ["ignore", fd, fd] });
    } finally {
      closeSync(fd);
    }
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${[file, ...args].join(" ")} exited ${code ?? signal}`)),
    );
  });
}
