// The package's build: dist/ emptied first (a module removed from src/ must not linger in the
// tarball), then tsc emits ESM and .d.ts beside it (tsconfig.build.json; the tests stay out).
// Root `npm install` runs it (postinstall), so a fresh clone's shop finds the package built.
// The adapter packages build with it too: `node ../kit/scripts/build.mjs .` (their own folder).
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const here = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, ".."));
rmSync(path.join(here, "dist"), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const result = spawnSync(process.execPath, [tsc, "-p", path.join(here, "tsconfig.build.json")], {
  stdio: "inherit",
});
process.exit(result.status ?? 1);
