// `node scripts/e2e-template.mjs <file>`: the seeded SQLite database (migrated, then seeded) that
// every storefront stack of npm test's browser suites copies (scripts/e2e-stacks.mjs reads it
// from E2E_DATABASE_TEMPLATE): made once per run, in the test-build step, rather than once per
// suite (docs/decisions/test-graph.md, "The stacks' start").
import { mkdirSync } from "node:fs";
import path from "node:path";
import { loadEnv, root } from "./lib/env.mjs";
import { prepareDatabase } from "./lib/run.mjs";

const file = process.argv[2];
if (!file) {
  console.error("usage: node scripts/e2e-template.mjs <file>");
  process.exit(2);
}
loadEnv();
// SQLite makes the file, not its folder (test-results/ of a fresh clone).
mkdirSync(path.dirname(path.resolve(root, file)), { recursive: true });
const { migrateMs, seedMs } = prepareDatabase(`file:${path.resolve(root, file)}`, { fresh: true });
console.log(`${file}: migrated in ${migrateMs} ms, seeded in ${seedMs} ms`);
