// The benchmarks' comparison route (npm run bench:webhook, bench:cluster): a Next app of the
// same node_modules whose one POST route reads the body, as the order webhook does, and answers
// 200: what a webhook costs before the shop does anything with it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/** `next build` in `dir` with the repository's Next; exits the benchmark when it fails. */
export function nextBuild(dir) {
  const result = spawnSync(
    process.execPath,
    [path.join(root, "node_modules/next/dist/bin/next"), "build"],
    {
      cwd: dir,
      stdio: "inherit",
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * The comparison route, the benchmark's own: a Next app with one POST route that reads the body
 * (as the webhook does) and answers 200. Inside the repository so it resolves the same Next.
 */
export function ensureFloorApp() {
  const dir = path.join(root, ".bench/floor-app");
  const ownConfig = path.join(dir, "instrumentation.js");
  if (existsSync(path.join(dir, ".next/BUILD_ID")) && existsSync(ownConfig)) return dir;
  mkdirSync(path.join(dir, "app/api/empty"), { recursive: true });
  // Its own (empty) config and start-up hook: without them Next takes the enclosing shop's,
  // whose start-up check refuses production without the service settings.
  writeFileSync(path.join(dir, "next.config.mjs"), "export default {};\n");
  writeFileSync(ownConfig, "export async function register() {}\n");
  writeFileSync(
    path.join(dir, "app/api/empty/route.js"),
    `export const dynamic = "force-dynamic";
export async function POST(request) {
  await request.arrayBuffer();
  return Response.json({ received: true });
}
`,
  );
  writeFileSync(path.join(dir, "package.json"), '{ "private": true, "type": "module" }\n');
  console.log("Building the comparison route (.bench/floor-app)…");
  nextBuild(dir);
  return dir;
}
