// `npm test`'s step for the storefront journeys the SDK release suite leaves out (./selection.ts
// SHOP_OWN: the shop's own features, the demo guide, the service's variant readings): the same
// Playwright config and stacks, `--grep` instead of the release run's `--grep-invert`, so every
// storefront test runs in exactly one of the two. Arguments after `--` go to Playwright.
import { spawnSync } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const result = spawnSync(
  path.join(ROOT, "node_modules/.bin/playwright"),
  ["test", "-c", "playwright.config.ts", "--project=storefront", ...process.argv.slice(2)],
  { cwd: ROOT, stdio: "inherit", env: { ...process.env, E2E_SELECTION: "shop-own" } },
);
process.exit(result.status ?? 1);
