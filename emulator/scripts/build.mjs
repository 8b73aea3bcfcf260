// Builds the emulator as one self-contained file, emulator/dist/cli.js: emulator/src/bin.ts (the
// emulator, main.ts, and its `readiness` subcommand, readiness/command.ts) with every JavaScript
// dependency (hono, @hono/node-server, zod) bundled in and the browser SDK
// (emulator/sdk) prebuilt into it, so the packed tool runs with Node alone — no runtime
// dependencies, no esbuild, no TypeScript. Beside it, dist/go-live/: the go-live journeys
// (emulator/go-live, the `service-emulator/go-live` export) as one ESM file with zod bundled and
// @playwright/test left to the integrator (a peer dependency), and its .d.ts.
// `node emulator/scripts/build.mjs` (or `npm run emulator:pack`, which also packs it). Uses
// esbuild and TypeScript from the root node_modules.
import { chmod, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { SDK_BUILD_OPTIONS } from "../sdk/build-options.mjs";

const EMULATOR = path.resolve(import.meta.dirname, "..");
export const DIST = path.join(EMULATOR, "dist");
export const CLI = path.join(DIST, "cli.js");
export const NOTICES = path.join(DIST, "THIRD_PARTY_LICENSES.txt");
export const GO_LIVE = path.join(DIST, "go-live");

/** The SDK exactly as the emulator builds it at start (emulator/src/assets/build-sdk.ts). */
async function buildSdkCode() {
  const result = await build({
    entryPoints: [path.join(EMULATOR, "sdk/main.ts")],
    ...SDK_BUILD_OPTIONS,
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error("esbuild produced no output for the SDK");
  return file.text;
}

/** The licence texts of the packages bundled into cli.js (their licences ask to keep them). */
async function writeNotices(inputs) {
  const packages = new Set();
  for (const input of inputs) {
    const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) packages.add(match[1]);
  }
  const sections = [];
  for (const name of [...packages].sort()) {
    const dir = path.join(EMULATOR, "..", "node_modules", name);
    const manifest = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8"));
    const licence = (await readdir(dir)).find((f) => /^licen[cs]e/i.test(f));
    const text = licence ? await readFile(path.join(dir, licence), "utf8") : manifest.license;
    sections.push(`${name}@${manifest.version} (${manifest.license})\n\n${text.trim()}\n`);
  }
  await writeFile(
    NOTICES,
    `service-emulator bundles these packages in dist/cli.js and dist/go-live/index.js:\n\n${sections.join("\n---\n\n")}`,
  );
}

export async function buildEmulator() {
  const started = performance.now();
  const sdk = await buildSdkCode();
  await rm(CLI, { force: true });
  await mkdir(DIST, { recursive: true });
  const result = await build({
    entryPoints: [path.join(EMULATOR, "src/bin.ts")],
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
    metafile: true,
    logLevel: "warning",
  });
  await chmod(CLI, 0o755);
  const goLive = await buildGoLive();
  await writeNotices([
    ...Object.keys(result.metafile.inputs),
    ...Object.keys(goLive.metafile.inputs),
  ]);
  return { cli: CLI, ms: Math.round(performance.now() - started) };
}

/**
 * The go-live module's .d.ts, one per source file, by TypeScript's isolated declaration emit
 * (no type-check: `tsc --noEmit` checks the source; a whole-program tsc here took seconds more on
 * the 2-core machine). Any construct it cannot declare alone (an exported function without its
 * return type…) fails the build.
 */
async function emitDeclarations() {
  const ts = (await import("typescript")).default;
  const dir = path.join(EMULATOR, "go-live");
  for (const file of await readdir(dir)) {
    if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
    const fileName = path.join(dir, file);
    const { outputText, diagnostics = [] } = ts.transpileDeclaration(
      await readFile(fileName, "utf8"),
      {
        fileName,
        reportDiagnostics: true,
        compilerOptions: { module: ts.ModuleKind.NodeNext, target: ts.ScriptTarget.ES2022 },
      },
    );
    if (diagnostics.length > 0) {
      const messages = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      throw new Error(`${file}: no declaration:\n${messages.join("\n")}`);
    }
    await writeFile(path.join(GO_LIVE, file.replace(/\.ts$/, ".d.ts")), outputText);
  }
}

/** dist/go-live/index.js (ESM, zod bundled, @playwright/test external) and its .d.ts files. */
async function buildGoLive() {
  await rm(GO_LIVE, { recursive: true, force: true });
  const result = await build({
    entryPoints: [path.join(EMULATOR, "go-live/index.ts")],
    outfile: path.join(GO_LIVE, "index.js"),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // The integrator's own Playwright: a second copy would refuse to run ("Requiring
    // @playwright/test second time").
    external: ["@playwright/test"],
    legalComments: "eof",
    metafile: true,
    logLevel: "warning",
  });
  await emitDeclarations();
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { cli, ms } = await buildEmulator();
  console.log(`built ${path.relative(process.cwd(), cli)} in ${ms} ms`);
}
