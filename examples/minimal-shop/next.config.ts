import { realpathSync } from "node:fs";
import path from "node:path";
import type { NextConfig } from "next";

// The kit is the package @service-integration/kit, found in the repository's node_modules (a
// workspace link to packages/kit, whose built dist/ is imported): the build's root is the
// repository, so Next follows the import out of this folder. Where node_modules is a link to another checkout (a git worktree), the root is the
// folder holding both.
const repositoryRoot = path.resolve(import.meta.dirname, "../..");
const modules = path.dirname(realpathSync(path.join(repositoryRoot, "node_modules")));
let root = repositoryRoot;
while (!`${modules}/`.startsWith(`${root}/`)) root = path.dirname(root);

const nextConfig: NextConfig = {
  serverExternalPackages: ["better-sqlite3"],
  turbopack: { root },
  outputFileTracingRoot: root,
  poweredByHeader: false,
};

export default nextConfig;
