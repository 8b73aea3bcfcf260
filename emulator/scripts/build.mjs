// Builds the emulator as one self-contained file, emulator/dist/cli.js: emulator/src/main.ts
// with every JavaScript dependency (hono, @hono/node-server, zod) bundled in and the browser SDK
// (emulator/sdk) prebuilt into it, so the packed tool runs with Node alone — no runtime
// dependencies, no esbuild, no TypeScript. `node emulator/scripts/build.mjs` (or
// `npm run emulator:pack`, which also packs it). Uses esbuild from the root node_modules.
import { chmod, mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const EMULATOR = path.resolve(import.meta.dirname, "..");
export const DIST = path.join(EMULATOR, "dist");
export const CLI = path.join(DIST, "cli.js");

/** The SDK exactly as the emulator builds it at start (emulator/src/assets/build-sdk.ts). */
async function buildSdkCode() {
  const result = await build({
    entryPoints: [path.join(EMULATOR, "sdk/main.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    legalComments: "none",
    logLevel: "silent",
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error("esbuild produced no output for the SDK");
  return file.text;
}

export async function buildEmulator() {
  const started = performance.now();
  const sdk = await buildSdkCode();
  await rm(CLI, { force: true });
  await mkdir(DIST, { recursive: true });
  await build({
    entryPoints: [path.join(EMULATOR, "src/main.ts")],
    outfile: CLI,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // esbuild is only imported on demand to build the SDK from source; the prebuilt SDK below
    // means the packed tool never reaches that import.
    external: ["esbuild"],
    define: { __EMULATOR_PREBUILT_SDK__: JSON.stringify(sdk) },
    banner: {
      js: [
        "#!/usr/bin/env node",
        // Bundled CommonJS code (if any) may call require(); give it one.
        'import { createRequire as __emulatorCreateRequire } from "node:module";',
        "const require = __emulatorCreateRequire(import.meta.url);",
      ].join("\n"),
    },
    legalComments: "eof",
    logLevel: "warning",
  });
  await chmod(CLI, 0o755);
  return { cli: CLI, ms: Math.round(performance.now() - started) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { cli, ms } = await buildEmulator();
  console.log(`built ${path.relative(process.cwd(), cli)} in ${ms} ms`);
}
