import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
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
/** Files a package ships besides dist/, README and CHANGELOG, whoever packs it: the kit's
 *  templates, which its `service-integration-kit init` command reads; the Prisma adapter's
 *  models and migrations, which a shop copies into its prisma/ folder. */
const PACKAGE_FILES = {
  "@service-integration/kit": /^templates\/init\/[\w./-]+\.tmpl$/,
  "@service-integration/prisma-adapter": /^prisma\/[\w./-]+\.(prisma|sql|toml)$/,
};

export function packWorkspace(name, destination, options = {}) {
  if (!builtFromSources(name))
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
      !options.extraFiles?.test(f) &&
      !PACKAGE_FILES[name]?.test(f),
  );
  if (stray.length)
    throw new Error(`${info.filename} holds files outside dist/README/CHANGELOG: ${stray}`);
  const missing = (options.requiredFiles ?? []).filter((f) => !files.includes(f));
  if (missing.length) throw new Error(`${info.filename} lacks ${missing}`);
  if (files.some((f) => /\.test\./.test(f))) throw new Error(`${info.filename} holds test files`);
  return { tarball: path.join(destination, info.filename), info, files };
}

/** The files under `dir` (recursively), but node_modules. */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.parentPath.includes("node_modules"))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Whether the package's dist/ was built after its sources last changed. The build empties dist/
 * first, so packing while another process imports the package (npm test's steps run side by side)
 * must not rebuild what is already current: `npm install` built it (postinstall).
 */
function builtFromSources(name) {
  const dir = path.join(root, "packages", name.split("/")[1]);
  const dist = path.join(dir, "dist");
  if (!existsSync(dist)) return false;
  const built = Math.min(...filesUnder(dist).map((file) => statSync(file).mtimeMs));
  const inputs = [
    ...filesUnder(path.join(dir, "src")),
    ...readdirSync(dir)
      .filter((file) => /^(package|tsconfig.*)\.json$/.test(file))
      .map((file) => path.join(dir, file)),
  ];
  return inputs.every((file) => statSync(file).mtimeMs < built);
}
