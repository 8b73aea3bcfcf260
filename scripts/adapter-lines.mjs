// Each ORM adapter's source lines, counted as the thin-adapter rule counts them: every file
// under the package's src/ except tests (*.test.ts), test support (src/test-support/), schemas
// (a file named schema.ts) and migrations (kept outside src/, under prisma/). Lines as `wc -l`
// counts them. Exits 1 when an adapter is over the limit (at most 500 lines each).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const LIMIT = 500;
const root = path.resolve(import.meta.dirname, "..");
const adapters = [
  "packages/drizzle-adapter",
  "packages/prisma-adapter",
  "packages/kysely-adapter",
];

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "test-support" ? [] : sources(file);
    if (!/\.(ts|tsx|mts|js|mjs)$/.test(entry.name)) return [];
    if (/\.test\.[a-z]+$/.test(entry.name) || entry.name === "schema.ts") return [];
    return [file];
  });
}

let over = false;
for (const adapter of adapters) {
  const files = sources(path.join(root, adapter, "src")).sort();
  let total = 0;
  console.log(adapter);
  for (const file of files) {
    const lines = readFileSync(file, "utf8").split("\n").length - 1;
    total += lines;
    console.log(`  ${String(lines).padStart(5)}  ${path.relative(path.join(root, adapter), file)}`);
  }
  console.log(`  ${String(total).padStart(5)}  total (limit ${LIMIT})`);
  if (total > LIMIT) over = true;
}
process.exit(over ? 1 : 0);
