// Child processes of the benchmarks: started with their output kept (printed when a run fails),
// stopped with SIGTERM and awaited.
import { spawn } from "node:child_process";

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
