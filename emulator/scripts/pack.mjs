// `npm run emulator:pack`: builds emulator/dist/cli.js and packs the emulator as
// .emulator-pack/service-emulator-<version>.tgz (at the repository root). The tarball installs
// into an empty folder with no network: `npm install --offline <tgz>`, then
// `npx service-emulator --port 4010` (emulator/README.md, "Run it from the tarball").
// The packed tool's test (emulator/test/packed.test.ts) and `npm run bench:emulator-start` use
// the helpers below.
import { execFileSync, spawn } from "node:child_process";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildEmulator } from "./build.mjs";

const EMULATOR = path.resolve(import.meta.dirname, "..");
export const PACK_DIR = path.resolve(EMULATOR, "../.emulator-pack");

/** Builds and packs; answers the tarball's path. */
export async function packEmulator() {
  await buildEmulator();
  await mkdir(PACK_DIR, { recursive: true });
  const out = execFileSync(
    "npm",
    ["pack", "--json", "--ignore-scripts", "--pack-destination", PACK_DIR],
    { cwd: EMULATOR, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  const [info] = JSON.parse(out);
  return path.join(PACK_DIR, info.filename);
}

/** Installs the tarball into `dir` as an integrator would, with no network; answers the bin. */
export function installPacked(tgz, dir) {
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", tgz], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
  });
  return path.join(dir, "node_modules", ".bin", "service-emulator");
}

const LISTENING = /\[emulator\] service API on (http:\/\/\S+)/;

/**
 * Starts the installed tool (`args` as on its command line) and resolves once it prints the
 * address it listens on; rejects if it exits first. `stop()` sends SIGTERM and resolves with the
 * exit code once it has exited (after writing --state / --export files).
 */
export function startPacked(bin, args, { cwd } = {}) {
  const child = spawn(bin, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      const match = LISTENING.exec(output);
      if (match) {
        resolve({
          url: match[1],
          child,
          output: () => output,
          async stop() {
            child.kill("SIGTERM");
            return exited;
          },
        });
      }
    };
    child.stdout.setEncoding("utf8").on("data", onData);
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      output += chunk;
    });
    child.once("error", reject);
    void exited.then((code) =>
      reject(new Error(`exited with ${code} before listening:\n${output}`)),
    );
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const tgz = await packEmulator();
  console.log(path.relative(process.cwd(), tgz));
}
