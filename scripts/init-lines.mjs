#!/usr/bin/env node
// npm run init-lines: the lines an integrator of the quick start (docs/integrating.md: Prisma 6
// on SQLite, iron-session; the minimal shop is built from it) wrote after
// `service-integration-kit init`, counted, never typed by hand (docs/integrating.md shows the
// figure through scripts/integration-figures.mjs, `npm run docs:figures`).
//
// What is counted: for each file init writes that the quick start gives a version of its own
// (its `lib/service/callbacks.ts`; its wiring, routes, job routes and instrumentation.ts are
// init's, scripts/minimal-shop.mjs), the lines that are not lines of what init writes there:
// non-blank lines, compared with their indentation trimmed, each line of init's file matching at
// most one of the quick start's. A line the integrator kept from init's file (an import, a
// signature) is not counted; a body, a comment or an import of their own is. The quick start's
// other files (its models, its cart and orders, its session, pages) are not init's and not counted
// here: the shop's own cart and order code (`lib/shop.ts`), which the callbacks call, is the
// shop's, as it is in any shop that integrates.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { quickStartOf } from "./snippets/extract.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SHOP = path.join(root, "examples/minimal-shop");
const QUICK_START = "docs/integrating.md";

const lines = (text) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

/** The shop's non-blank lines not in `template` (a multiset: each template line used once). */
export function linesBeyond(own, template) {
  const left = new Map();
  for (const line of lines(template)) left.set(line, (left.get(line) ?? 0) + 1);
  let written = 0;
  for (const line of lines(own)) {
    const n = left.get(line) ?? 0;
    if (n > 0) left.set(line, n - 1);
    else written += 1;
  }
  return written;
}

/** What init writes for the quick start: the kit's bin (its package.json's, from the workspace
 *  link) run in an empty app made of the shop's package.json and tsconfig.json, as
 *  scripts/minimal-shop.mjs runs it. File → text. */
function initOutput() {
  const app = mkdtempSync(path.join(tmpdir(), "init-lines-"));
  try {
    for (const file of ["package.json", "tsconfig.json"])
      cpSync(path.join(SHOP, file), path.join(app, file));
    mkdirSync(path.join(app, "app"));
    const kit = path.join(root, "node_modules/@service-integration/kit");
    const { bin } = JSON.parse(readFileSync(path.join(kit, "package.json"), "utf8"));
    const run = spawnSync(
      process.execPath,
      [path.join(kit, bin["service-integration-kit"]), "init"],
      {
        cwd: app,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    if (run.status !== 0) throw new Error(`service-integration-kit init failed:\n${run.stderr}`);
    const written = [...run.stdout.matchAll(/^ {2}wrote +(\S+)$/gm)].map((m) => m[1]);
    return new Map(written.map((file) => [file, readFileSync(path.join(app, file), "utf8")]));
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
}

/** Each file init writes that the shop has its own version of, with the lines written beyond
 *  init's: [{ file, lines }], the callbacks file first. */
export function initLines() {
  const quickStart = new Map(quickStartOf(root, QUICK_START).files.map((f) => [f.path, f.text]));
  return [...initOutput()]
    .flatMap(([file, text]) => {
      const own = quickStart.get(file);
      return own === undefined ? [] : [{ file, lines: linesBeyond(own, text) }];
    })
    .sort(
      (a, b) => Number(b.file.endsWith("callbacks.ts")) - Number(a.file.endsWith("callbacks.ts")),
    );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = initLines();
  console.log("Lines the quick start's integrator wrote after `service-integration-kit init`");
  console.log(
    "(non-blank lines of docs/integrating.md's file that are not lines of init's; scripts/init-lines.mjs):",
  );
  for (const { file, lines: n } of rows) console.log(`  ${file.padEnd(28)} ${n}`);
  console.log(`  ${"total".padEnd(28)} ${rows.reduce((sum, r) => sum + r.lines, 0)}`);
}
