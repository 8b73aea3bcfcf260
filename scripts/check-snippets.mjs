#!/usr/bin/env node
// `npm run check:snippets`: every TypeScript code block of docs/integrating.md and the packages'
// READMEs (scripts/snippets/extract.mjs lists the docs) type-checked with `strict` against the
// packages as an integrator installs them. Packs the kit, both adapters and the emulator
// (scripts/lib/pack.mjs, emulator/scripts/pack.mjs), installs them OFFLINE into a temporary folder
// outside the repository beside the libraries the snippets use, from a lockfile made of this
// repository's (scripts/lib/lockfile-subset.mjs: `npm ci --offline` then takes every tarball from
// npm's cache by its integrity, with no registry metadata), writes each block as a module of its
// own — a fragment (marked `<!-- snippet: stub=NAME -->` on the line before its fence) inside its
// stub (scripts/snippets/stubs.mjs) — and runs tsc over them. An error is printed at the doc's
// own line. Exit 0 only when every block compiles. `-- --keep` keeps the folder; `-- --in DIR`
// checks again in a kept folder without packing and installing (while editing the docs).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { packEmulator } from "../emulator/scripts/pack.mjs";
import { root } from "./lib/env.mjs";
import { lockfileFor } from "./lib/lockfile-subset.mjs";
import { packWorkspace } from "./lib/pack.mjs";
import { SNIPPET_DOCS, snippetsOf } from "./snippets/extract.mjs";
import { STUBS } from "./snippets/stubs.mjs";

/** The packages under test: name → folder (the emulator is packed by its own script). */
const WORKSPACES = {
  "@service-integration/kit": "packages/kit",
  "@service-integration/drizzle-adapter": "packages/drizzle-adapter",
  "@service-integration/prisma-adapter": "packages/prisma-adapter",
  "@service-integration/kysely-adapter": "packages/kysely-adapter",
};
/** What the snippets import beside the packages, at the versions this repository's lockfile pins. */
const LIBRARIES = [
  "@playwright/test",
  "@prisma/client",
  "@types/better-sqlite3",
  "@types/node",
  "@types/pg",
  "@types/react",
  "better-sqlite3",
  "drizzle-kit",
  "drizzle-orm",
  "iron-session",
  "kysely",
  "next",
  "pg",
  "react",
  "typescript",
  "vitest",
  "zod",
];

const started = Date.now();
const log = (line) => console.log(`[snippets] ${line}`);

// The quick start's files (`file=PATH`) import each other and the app's generated Prisma client:
// they are compiled in the app they make (scripts/minimal-shop.mjs, whose `next build` type-checks
// them with strict), not one by one here.
const snippets = SNIPPET_DOCS.flatMap((doc) => snippetsOf(root, doc)).filter((s) => !s.file);
const unknown = snippets.filter((s) => s.stub && !STUBS[s.stub]);
if (unknown.length) {
  for (const s of unknown) console.error(`${s.doc}:${s.line - 1}: no stub named "${s.stub}"`);
  process.exit(1);
}

const reuse = process.argv.includes("--in") ? process.argv[process.argv.indexOf("--in") + 1] : null;
const work = reuse ? path.resolve(reuse) : mkdtempSync(path.join(tmpdir(), "check-snippets-"));
const app = path.join(work, "app");
const packs = path.join(work, "packs");
mkdirSync(packs, { recursive: true });
if (reuse) rmSync(path.join(app, "snippets"), { recursive: true, force: true });
mkdirSync(path.join(app, "snippets"), { recursive: true });

/** The packages packed and installed offline in `app` beside the libraries. */
async function install() {
  const rootLock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8"));
  const version = (name) => rootLock.packages[`node_modules/${name}`].version;
  const manifest = {
    name: "snippets",
    version: "0.0.0",
    private: true,
    type: "module",
    dependencies: Object.fromEntries(LIBRARIES.map((name) => [name, version(name)])),
  };
  const local = {};
  const add = (name, tarball, own) => {
    const spec = `file:../packs/${path.basename(tarball)}`;
    manifest.dependencies[name] = spec;
    local[name] = { resolved: spec, manifest: own };
  };
  for (const [name, dir] of Object.entries(WORKSPACES)) {
    const { tarball } = packWorkspace(name, packs, {
      // The Prisma adapter ships its schema and migrations (its README says which).
      extraFiles: /^(prisma|migrations)\//,
    });
    add(name, tarball, JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8")));
  }
  const emulatorTarball = await packEmulator();
  copyFileSync(emulatorTarball, path.join(packs, path.basename(emulatorTarball)));
  add(
    "service-emulator",
    emulatorTarball,
    JSON.parse(readFileSync(path.join(root, "emulator/package.json"), "utf8")),
  );
  writeFileSync(path.join(app, "package.json"), JSON.stringify(manifest, null, 2));
  writeFileSync(
    path.join(app, "package-lock.json"),
    JSON.stringify(lockfileFor(rootLock, manifest, local), null, 2),
  );
  log(`packed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // --ignore-scripts: only the types are needed (no native build, no prisma generate).
  const install = spawnSync(
    "npm",
    ["ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"],
    { cwd: app, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NODE_ENV: "" } },
  );
  if (install.status !== 0) throw new Error(`npm ci --offline exited ${install.status}`);
  log(`installed offline in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

let status = 1;
try {
  if (!reuse) await install();

  /** file name → { snippet, offset (lines of stub before the code) } */
  const files = new Map();
  const written = new Set();
  for (const snippet of snippets) {
    const stub = snippet.stub ? STUBS[snippet.stub] : { before: "", after: "" };
    for (const [name, text] of Object.entries(stub.files ?? {})) {
      if (written.has(name)) continue;
      writeFileSync(path.join(app, "snippets", name), text);
      written.add(name);
    }
    const before = stub.before ? `${stub.before}\n` : "";
    const id = `${snippet.doc.replace(/[^\w]+/g, "_")}_L${snippet.line}.${snippet.lang}`;
    // `export {}`: every block a module of its own, so one block's names never meet another's.
    writeFileSync(
      path.join(app, "snippets", id),
      `${before}${snippet.code}\n${stub.after ?? ""}\nexport {};\n`,
    );
    files.set(id, { snippet, offset: before.split("\n").length - 1 });
  }
  writeFileSync(
    path.join(app, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: {
          target: "ES2022",
          lib: ["dom", "dom.iterable", "ES2023"],
          module: "esnext",
          moduleResolution: "bundler",
          strict: true,
          noEmit: true,
          esModuleInterop: true,
          isolatedModules: true,
          jsx: "react-jsx",
          // The libraries' own .d.ts are not under test (drizzle-orm's fail a library check).
          skipLibCheck: true,
          types: ["node"],
        },
        include: ["snippets/**/*"],
      },
      null,
      2,
    ),
  );
  const tsc = spawnSync(
    process.execPath,
    [path.join(app, "node_modules/typescript/bin/tsc"), "-p", ".", "--pretty", "false"],
    { cwd: app, encoding: "utf8" },
  );
  const errors = [];
  for (const line of tsc.stdout.split("\n").filter(Boolean)) {
    const m = /^snippets\/([^(]+)\((\d+),(\d+)\): (.*)$/.exec(line);
    const file = m && files.get(m[1]);
    if (!file) {
      errors.push(line);
      continue;
    }
    const at = Number(m[2]) - file.offset;
    const where =
      at >= 1 && at <= file.snippet.code.split("\n").length
        ? `${file.snippet.doc}:${file.snippet.line + at - 1}`
        : `${file.snippet.doc}:${file.snippet.line} (its stub "${file.snippet.stub}", line ${m[2]})`;
    errors.push(`${where}: ${m[4]}`);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (tsc.status !== 0 || errors.length > 0) {
    for (const e of errors) console.error(e);
    console.error(
      `[snippets] ${errors.length} errors in ${snippets.length} snippets (${seconds} s)`,
    );
  } else {
    const fragments = snippets.filter((s) => s.stub).length;
    log(
      `${snippets.length} snippets of ${SNIPPET_DOCS.length} docs compile with strict (${fragments} fragments inside their stubs) in ${seconds} s`,
    );
    status = 0;
  }
} catch (error) {
  console.error(`[snippets] ${error.message}`);
} finally {
  if (process.argv.includes("--keep") || reuse) log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
process.exit(status);
