// Builds the browser SDK (emulator/sdk) into one ES module in memory with esbuild's API, so the
// emulator serves {assets_url}/v1/main.js without a build step (decision: README "Browser SDK"),
// or loads a candidate build the SDK team wants to test (`--sdk PATH|URL`, README "Serve a
// candidate SDK").
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { SDK_BUILD_OPTIONS } from "../../sdk/build-options.mjs";

/**
 * The built-in SDK, already built: set only in the packed tool (emulator/scripts/build.mjs
 * defines it), which carries no esbuild. From the source tree it is undefined and the SDK is
 * built at start.
 */
declare const __EMULATOR_PREBUILT_SDK__: string | undefined;

export const SDK_BUDGET_GZIP_BYTES = 20 * 1024;

export type SdkBundle = {
  code: string;
  bytes: number;
  gzipBytes: number;
  /** "built-in" (emulator/sdk built at start), or the path or URL the candidate came from */
  source: string;
  sha256: string;
};

export const SDK_ENTRY = path.resolve(import.meta.dirname, "../../sdk/main.ts");
const MAX_CANDIDATE_BYTES = 5 * 1024 * 1024;

function bundleOf(code: Uint8Array, source: string): SdkBundle {
  return {
    code: Buffer.from(code).toString("utf8"),
    bytes: code.byteLength,
    gzipBytes: gzipSync(code, { level: 9 }).byteLength,
    source,
    sha256: createHash("sha256").update(code).digest("hex"),
  };
}

/** Builds the SDK from `entry` (default: emulator/sdk/main.ts; a copy for mutation runs). */
export async function buildSdk(entry = SDK_ENTRY): Promise<SdkBundle> {
  // Loaded on demand: the packed tool never calls this for its built-in SDK.
  const { build } = await import("esbuild");
  const result = await build({ entryPoints: [entry], ...SDK_BUILD_OPTIONS });
  const file = result.outputFiles[0];
  if (!file) throw new Error("esbuild produced no output for the SDK");
  return bundleOf(file.contents, entry === SDK_ENTRY ? "built-in" : entry);
}

/**
 * A candidate SDK bundle: an http(s) URL (fetched once, must answer 200) or a file path. The
 * bundle is one ES module, as `{assets_url}/v1/main.js` is; it is served as it is, byte for byte.
 */
export async function loadSdk(source: string): Promise<SdkBundle> {
  let bytes: Uint8Array;
  if (/^https?:\/\//i.test(source)) {
    const response = await fetch(source, { signal: AbortSignal.timeout(30_000) });
    if (response.status !== 200) {
      throw new Error(`SDK candidate ${source} answered ${response.status}, not 200`);
    }
    bytes = new Uint8Array(await response.arrayBuffer());
  } else {
    bytes = await readFile(path.resolve(source.replace(/^file:\/\//, "")));
  }
  if (bytes.byteLength === 0) throw new Error(`SDK candidate ${source} is empty`);
  if (bytes.byteLength > MAX_CANDIDATE_BYTES) {
    throw new Error(`SDK candidate ${source} is larger than ${MAX_CANDIDATE_BYTES} bytes`);
  }
  return bundleOf(bytes, source);
}

/** The SDK the emulator serves: the candidate when one is given, else its own build. */
export function sdkFor(candidate: string | undefined): Promise<SdkBundle> {
  if (candidate) return loadSdk(candidate);
  if (typeof __EMULATOR_PREBUILT_SDK__ === "string") {
    return Promise.resolve(bundleOf(Buffer.from(__EMULATOR_PREBUILT_SDK__, "utf8"), "built-in"));
  }
  return buildSdk();
}

export function describeBundle(bundle: SdkBundle): string {
  const kb = (n: number) => (n / 1024).toFixed(1);
  const from = bundle.source === "built-in" ? "" : ` from ${bundle.source}`;
  return `SDK main.js${from}: ${kb(bundle.bytes)} KB, ${kb(bundle.gzipBytes)} KB gzipped (budget ${kb(SDK_BUDGET_GZIP_BYTES)} KB)`;
}
