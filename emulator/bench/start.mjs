// `npm run bench:emulator-start [-- --runs 5] [--source]`: how long the packed emulator takes
// from process start to a 200 from /__emulator/health. Packs the tarball, installs it offline
// into a temporary folder, then starts it `--runs` times (port 0) and prints each time and the
// median. `--source` also times `tsx emulator/src/main.ts` (the source tree's start) to compare.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { installPacked, packEmulator } from "../scripts/pack.mjs";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "5" }, source: { type: "boolean", default: false } },
});
const runs = Number(values.runs);
const ROOT = path.resolve(import.meta.dirname, "../..");
const LISTENING = /\[emulator\] service API on (http:\/\/\S+)/;

/** Spawns the command; resolves with ms from spawn until /__emulator/health answers 200. */
async function timeToHealthy(command, args, cwd) {
  const started = performance.now();
  const child = spawn(command, [...args, "--port", "0"], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr.setEncoding("utf8").on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const url = await new Promise((resolve, reject) => {
      child.stdout.setEncoding("utf8").on("data", (chunk) => {
        output += chunk;
        const match = LISTENING.exec(output);
        if (match) resolve(match[1]);
      });
      void exited.then((code) => reject(new Error(`exited with ${code}:\n${output}`)));
    });
    // Readiness poll: the port is printed once the server listens; health must answer too.
    for (;;) {
      const res = await fetch(`${url}/__emulator/health`).catch(() => undefined);
      if (res?.status === 200) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    return performance.now() - started;
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

function report(label, times) {
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(
    `${label}: ${times.map((t) => Math.round(t)).join(", ")} ms — median ${Math.round(median)} ms, ` +
      `min ${Math.round(sorted[0])} ms, max ${Math.round(sorted.at(-1))} ms`,
  );
  return median;
}

const dir = await mkdtemp(path.join(tmpdir(), "service-emulator-bench-"));
try {
  const packStarted = performance.now();
  const bin = installPacked(await packEmulator(), dir);
  console.log(`pack + offline install: ${Math.round(performance.now() - packStarted)} ms`);
  const packed = [];
  for (let n = 0; n < runs; n++) packed.push(await timeToHealthy(bin, [], dir));
  const median = report(`packed start to healthy (${runs} starts)`, packed);
  if (values.source) {
    const tsx = path.join(ROOT, "node_modules/.bin/tsx");
    const source = [];
    for (let n = 0; n < runs; n++) {
      source.push(await timeToHealthy(tsx, ["emulator/src/main.ts"], ROOT));
    }
    report(`source (tsx) start to healthy (${runs} starts)`, source);
  }
  console.log(median <= 1000 ? "within the 1 s aim" : "OVER the 1 s aim");
} finally {
  await rm(dir, { recursive: true, force: true });
}
