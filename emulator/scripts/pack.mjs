// `npm run emulator:pack`: builds emulator/dist/cli.js and packs the emulator as
// .emulator-pack/service-emulator-<version>.tgz (at the repository root). The tarball installs
// into an empty folder with no network: `npm install --offline <tgz>`, then
// `npx service-emulator --port 4010` (emulator/README.md, "Run it from the tarball").
import { execFileSync } from "node:child_process";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildEmulator } from "./build.mjs";

const EMULATOR = path.resolve(import.meta.dirname, "..");
export const PACK_DIR = path.resolve(EMULATOR, "../.emulator-pack");

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

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const tgz = await packEmulator();
  console.log(path.relative(process.cwd(), tgz));
}
