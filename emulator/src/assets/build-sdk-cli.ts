// `npm run build:sdk`: builds the SDK, writes emulator/dist/v1/main.js for inspection and fails
// when the gzipped size exceeds the budget (at most 20 KB gzipped).
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { buildSdk, describeBundle, SDK_BUDGET_GZIP_BYTES } from "./build-sdk";

const bundle = await buildSdk();
const out = path.resolve(import.meta.dirname, "../../dist/v1/main.js");
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, bundle.code);
console.log(describeBundle(bundle));
console.log(`written to ${path.relative(process.cwd(), out)}`);
if (bundle.gzipBytes > SDK_BUDGET_GZIP_BYTES) {
  console.error("SDK bundle is over its gzip budget");
  process.exit(1);
}
