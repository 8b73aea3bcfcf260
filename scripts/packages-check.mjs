#!/usr/bin/env node
// `npm run test:packages` (npm test's step "Packages: pack, lint and install"): each workspace
// package as an integrator receives it. `npm pack` makes the tarball (its prepack builds dist/),
// publint and @arethetypeswrong/cli lint that tarball, then it is installed offline into an empty
// folder, each public entry is imported from plain Node (ESM) and a small consumer file is
// type-checked against it with tsc. Exit 0 only when all of it passes.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { root } from "./lib/env.mjs";
import { run } from "./lib/run.mjs";

const bin = (name) => path.join(root, "node_modules/.bin", name);

/** The kit as an integrator sees it: its entries, the Node conditions each needs outside a
 *  bundler, and one name each must export (a check that the entry is the one meant). */
const KIT = {
  dir: "packages/kit",
  name: "@service-integration/kit",
  // Installed beside the tarball from this repository's node_modules, not from a registry: the
  // step stays offline and seconds long (npm would otherwise copy next's whole tree in).
  peers: ["zod", "react", "next", "vitest", "@types/react", "@types/node"],
  entries: [
    { spec: "", conditions: [], exports: ["buildCart", "ServiceApiError", "ConcurrentWriteError"] },
    { spec: "/react", conditions: [], exports: ["ServicePaymentOption", "ServiceSdkLoader"] },
    // Server modules import "server-only", which throws outside a React server environment: the
    // guard that keeps tokens out of a browser bundle. Node is given the bundlers' condition.
    {
      spec: "/server",
      conditions: ["react-server"],
      exports: ["createServiceClient", "receiveOrderWebhook"],
    },
    {
      spec: "/testing",
      conditions: ["react-server"],
      exports: ["runShopPortsConformance", "MemoryTokenStore"],
    },
  ],
  // Types as a shop writes them: one value or type of each entry, used.
  consumer: `import { buildCart, type TokenStore, type StoredTokens } from "@service-integration/kit";
import { createServiceClient, readServiceConfig } from "@service-integration/kit/server";
import { ServicePaymentOption, type ServiceSdkLoader } from "@service-integration/kit/react";
import { MemoryTokenStore } from "@service-integration/kit/testing";

const store: TokenStore = new MemoryTokenStore();
const tokens: StoredTokens | null = await store.load();
const client: ReturnType<typeof createServiceClient> = createServiceClient({
  config: readServiceConfig(),
  store,
});
const cart = buildCart({ id: "c1", currency: "EUR", items: [] });
const total: number = cart.total;
// @ts-expect-error: deep imports are closed (the exports map lists four entries)
import("@service-integration/kit/dist/cart.js");
export { client, tokens, total, ServicePaymentOption };
export type Loader = typeof ServiceSdkLoader;
`,
};

function capture(command, args, options) {
  const result = spawnSync(command, args, { encoding: "utf8", ...options });
  return { ok: result.status === 0, out: `${result.stdout ?? ""}${result.stderr ?? ""}` };
}

function fail(message) {
  console.error(`✗ ${message}`);
  process.exit(1);
}

function checkPackage(pkg) {
  const work = mkdtempSync(path.join(tmpdir(), "packages-check-"));
  try {
    const t0 = Date.now();
    // 1. The package's build (what its prepack runs; here first, so npm pack's JSON answer comes
    // alone), then npm pack into the empty folder.
    run("npm", ["run", "build", "--workspace", pkg.name], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    const packed = spawnSync(
      "npm",
      ["pack", "--json", "--ignore-scripts", "--pack-destination", work, "--workspace", pkg.name],
      { cwd: root, encoding: "utf8" },
    );
    if (packed.status !== 0) fail(`npm pack ${pkg.name}:\n${packed.stderr}`);
    const [info] = JSON.parse(packed.stdout);
    const tarball = path.join(work, info.filename);
    const files = info.files.map((f) => f.path);
    const stray = files.filter(
      (f) => !/^(dist\/.+\.(js|d\.ts)|README\.md|CHANGELOG\.md|package\.json)$/.test(f),
    );
    if (stray.length) fail(`${info.filename} holds files outside dist/README/CHANGELOG: ${stray}`);
    if (files.some((f) => /\.test\./.test(f))) fail(`${info.filename} holds test files`);
    console.log(
      `${info.filename}: ${files.length} files, ${(info.size / 1024).toFixed(1)} kB packed`,
    );

    // 2. Lint the tarball: the package.json fields and exports (publint, warnings as errors) and
    // every entry's types as each TypeScript resolution mode sees them (attw; ESM only, so the
    // CommonJS and node10 resolutions are out of scope: the esm-only profile).
    run(bin("publint"), ["run", tarball, "--strict"]);
    run(bin("attw"), [tarball, "--profile", "esm-only", "--format", "table-flipped"]);

    // 3. Install the tarball offline into an empty consumer; the peers come from this repository.
    const consumer = path.join(work, "consumer");
    mkdirSync(consumer);
    writeFileSync(
      path.join(consumer, "package.json"),
      JSON.stringify({ name: "consumer", private: true, type: "module" }),
    );
    run(
      "npm",
      [
        "install",
        "--offline",
        "--no-audit",
        "--no-fund",
        "--no-package-lock",
        "--legacy-peer-deps",
        tarball,
      ],
      { cwd: consumer, stdio: ["ignore", "ignore", "inherit"] },
    );
    for (const peer of pkg.peers) {
      const target = path.join(consumer, "node_modules", peer);
      mkdirSync(path.dirname(target), { recursive: true });
      symlinkSync(path.join(root, "node_modules", peer), target);
    }

    // 4. Each entry from plain Node, with the conditions a bundler would give it.
    for (const entry of pkg.entries) {
      const id = `${pkg.name}${entry.spec}`;
      const script = `const m = await import(${JSON.stringify(id)});
const missing = ${JSON.stringify(entry.exports)}.filter((name) => !(name in m));
if (missing.length) throw new Error("missing exports: " + missing.join(", "));
console.log(${JSON.stringify(id)} + ": " + Object.keys(m).length + " exports");`;
      const args = [...entry.conditions.map((c) => `--conditions=${c}`), "--input-type=module"];
      const imported = capture(process.execPath, [...args, "-e", script], { cwd: consumer });
      if (!imported.ok) fail(`import ${id}:\n${imported.out}`);
      process.stdout.write(imported.out);
    }
    // Each module /react re-exports keeps its "use client" directive in the tarball (tsc keeps a
    // directive prologue; a bundler that dropped it would render them as server components).
    const installed = path.join(consumer, "node_modules", pkg.name);
    for (const [, module] of readFileSync(path.join(installed, "dist/react.js"), "utf8").matchAll(
      /from "\.\/([^"]+)"/g,
    )) {
      const first = readFileSync(path.join(installed, "dist", module), "utf8").split("\n")[0];
      if (first !== '"use client";') fail(`dist/${module} lost its "use client" directive`);
    }
    console.log(`${pkg.name}/react: every module starts with "use client"`);
    // Without the condition, /server refuses to load: the server-only guard shipped.
    const guarded = capture(
      process.execPath,
      ["--input-type=module", "-e", `await import("${pkg.name}/server")`],
      { cwd: consumer },
    );
    if (guarded.ok || !/Client Component/.test(guarded.out))
      fail(`${pkg.name}/server loaded outside a react-server environment`);
    console.log(`${pkg.name}/server without react-server: refused (server-only)`);

    // 5. A consumer file type-checked against the installed package (nodenext, strict).
    writeFileSync(path.join(consumer, "consumer.ts"), pkg.consumer);
    writeFileSync(
      path.join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          lib: ["dom", "ES2023"],
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ["node"],
        },
        files: ["consumer.ts"],
      }),
    );
    run(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", consumer]);
    console.log(`consumer.ts type-checks against ${info.filename}`);
    console.log(`✓ ${pkg.name}: packed, linted, installed and imported in ${Date.now() - t0} ms`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

checkPackage(KIT);
// The package's own manifest and the root's pin agree (a shop installs the version it names).
const version = JSON.parse(readFileSync(path.join(root, KIT.dir, "package.json"), "utf8")).version;
const pinned = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).dependencies[
  KIT.name
];
if (pinned !== version) fail(`package.json pins ${KIT.name} ${pinned}, the package is ${version}`);
