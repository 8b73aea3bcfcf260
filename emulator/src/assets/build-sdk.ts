// Builds the browser SDK (emulator/sdk) into one ES module in memory with esbuild's API, so the
// emulator serves {assets_url}/v1/main.js without a build step (decision: README "Browser SDK").
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

export const SDK_BUDGET_GZIP_BYTES = 20 * 1024;

export type SdkBundle = { code: string; bytes: number; gzipBytes: number };

const entry = path.resolve(import.meta.dirname, "../../sdk/main.ts");

export async function buildSdk(): Promise<SdkBundle> {
  const result = await build({
    entryPoints: [entry],
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
  return {
    code: file.text,
    bytes: file.contents.byteLength,
    gzipBytes: gzipSync(file.contents, { level: 9 }).byteLength,
  };
}

export function describeBundle(bundle: SdkBundle): string {
  const kb = (n: number) => (n / 1024).toFixed(1);
  return `SDK main.js: ${kb(bundle.bytes)} KB, ${kb(bundle.gzipBytes)} KB gzipped (budget ${kb(SDK_BUDGET_GZIP_BYTES)} KB)`;
}
