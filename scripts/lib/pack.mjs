import { spawnSync } from "node:child_process";
import path from "node:path";
import { root } from "./env.mjs";
import { run } from "./run.mjs";

/**
 * A workspace package as an integrator receives it: builds it (what its prepack runs; here
 * first, so npm pack's JSON answer comes alone), then packs it into `destination`; checks the
 * tarball holds dist/, README, CHANGELOG and nothing else (but `options.extraFiles`, a RegExp,
 * and at least `options.requiredFiles`: a package's shipped schema and migrations). Used by scripts/packages-check.mjs
 * and scripts/minimal-shop.mjs.
 */
export function packWorkspace(name, destination, options = {}) {
  run("npm", ["run", "build", "--workspace", name], { stdio: ["ignore", "ignore", "inherit"] });
  const packed = spawnSync(
    "npm",
    ["pack", "--json", "--ignore-scripts", "--pack-destination", destination, "--workspace", name],
    { cwd: root, encoding: "utf8" },
  );
  if (packed.status !== 0) throw new Error(`npm pack ${name}:\n${packed.stderr}`);
  const [info] = JSON.parse(packed.stdout);
  const files = info.files.map((f) => f.path);
  const stray = files.filter(
    (f) =>
      !/^(dist\/.+\.(js|d\.ts)|README\.md|CHANGELOG\.md|package\.json)$/.test(f) &&
      !options.extraFiles?.test(f),
  );
  if (stray.length)
    throw new Error(`${info.filename} holds files outside dist/README/CHANGELOG: ${stray}`);
  const missing = (options.requiredFiles ?? []).filter((f) => !files.includes(f));
  if (missing.length) throw new Error(`${info.filename} lacks ${missing}`);
  if (files.some((f) => /\.test\./.test(f))) throw new Error(`${info.filename} holds test files`);
  return { tarball: path.join(destination, info.filename), info, files };
}
