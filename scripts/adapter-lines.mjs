// Each ORM adapter's source lines, counted as the thin-adapter rule counts them: every file
// under the package's src/ except tests (*.test.ts), test support (src/test-support/), schemas
// (a file named schema.ts) and migrations (kept outside src/, under prisma/). Lines as `wc -l`
// counts them. Exits 1 when an adapter is over the limit (at most 500 lines each).
// docs/integrating.md's figures (scripts/integration-figures.mjs) read the same count.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const LIMIT = 500;
const root = path.resolve(import.meta.dirname, "..");
export const ADAPTERS = [
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

/** The adapter's counted files (relative to the package) with their lines, and the total. */
export function adapterLines(adapter) {
  const files = sources(path.join(root, adapter, "src"))
    .sort()
    .map((file) => ({
      file: path.relative(path.join(root, adapter), file),
      lines: readFileSync(file, "utf8").split("\n").length - 1,
    }));
  return { adapter, files, total: files.reduce((n, f) => n + f.lines, 0) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let over = false;
  for (const { adapter, files, total } of ADAPTERS.map(adapterLines)) {
    console.log(adapter);
    for (const { file, lines } of files) console.log(`  ${String(lines).padStart(5)}  ${file}`);
    console.log(`  ${String(total).padStart(5)}  total (limit ${LIMIT})`);
    if (total > LIMIT) over = true;
  }
  process.exit(over ? 1 : 0);
}
