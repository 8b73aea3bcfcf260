// `npm run test:changed`: the fast inner loop. Runs only the tests related to what changed since
// main (committed or not): Vitest's `--changed` (test files that import a changed file), then the
// browser journeys Playwright's `--only-changed` picks the same way, against a fresh
// `next build` only when there are any. `npm test` stays the whole gate.
import { spawnSync } from "node:child_process";
import { ensureBrowser } from "./ensure-browser.mjs";
import { loadEnv, root } from "./lib/env.mjs";
import { run } from "./lib/run.mjs";

loadEnv();
const bin = (name) => `${root}/node_modules/.bin/${name}`;
const base = process.argv[2] ?? "main";
const known = spawnSync("git", ["rev-parse", "--verify", "--quiet", base], { cwd: root });
if (known.status !== 0) {
  console.error(
    `No git ref ${base}: name the branch to compare with (npm run test:changed -- REF).`,
  );
  process.exit(2);
}

// The shop imports the kit's built dist/, not its src/: rebuild it when its sources changed, so
// the tests and the build below see them (vitest relates a src/ change to the kit's own tests).
const changed = spawnSync("git", ["status", "--porcelain", "--", "packages/kit"], {
  cwd: root,
  encoding: "utf8",
}).stdout;
const committed = spawnSync("git", ["diff", "--name-only", base, "--", "packages/kit"], {
  cwd: root,
  encoding: "utf8",
}).stdout;
if (`${changed}${committed}`.trim())
  run("npm", ["run", "build", "--workspace", "@service-integration/kit"]);

run(bin("vitest"), ["run", `--changed=${base}`, "--passWithNoTests"]);

const listed = spawnSync(bin("playwright"), ["test", `--only-changed=${base}`, "--list"], {
  cwd: root,
  encoding: "utf8",
});
const journeys = /Total: (\d+) tests?/.exec(listed.stdout ?? "")?.[1] ?? "0";
if (journeys === "0") {
  console.log(`\nNo browser journey relates to the changes since ${base}.`);
  process.exit(0);
}
console.log(`\n${journeys} browser journeys relate to the changes since ${base}: building first.`);
process.env.CHROMIUM_PATH = ensureBrowser();
run(bin("next"), ["build"], { env: { ...process.env, SHOP_TEST_CLOCK: "1" } });
run(bin("playwright"), ["test", `--only-changed=${base}`, "--project", "storefront"]);
