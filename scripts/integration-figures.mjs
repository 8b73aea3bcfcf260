#!/usr/bin/env node
import { spawnSync } from "node:child_process";
// The figures docs/integrating.md gives for the minimal shop (what its integrator wrote, by
// concern), counted from the files, never typed by hand: `npm run docs:figures` rewrites the
// table between its markers, `--check` (run by scripts/integration-figures.test.ts in npm test)
// fails when the table no longer matches the files.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DOC = path.join(root, "docs/integrating.md");
const HOST = "examples/minimal-shop";
const BEGIN = "<!-- figures:minimal-shop (npm run docs:figures) -->";
const END = "<!-- /figures:minimal-shop -->";

/**
 * Each concern: what it holds in words, and which of the host's files are it (paths relative to
 * the host; tests, e2e journeys and test support are not what an integrator ships, so they are
 * counted by nobody). A file matched by no concern fails the count: a new file must be placed.
 */
export const CONCERNS = [
  {
    name: "the ports (`lib/adapter/`)",
    holds:
      "identity, statuses, Service Pay store, register-purchase store, token store, shopper source, orders, wiring, client and deps, route inputs",
    match: (f) => f.startsWith("lib/adapter/"),
  },
  {
    name: "the shop itself (data layer, carts, orders, login, session identity)",
    holds: "`lib/db.ts`, `lib/shop.ts`, `lib/session.ts`, `lib/current.ts`, `proxy.ts`",
    match: (f) => /^lib\/[^/]+\.ts$/.test(f) || f === "proxy.ts",
  },
  {
    name: "routes and actions",
    holds: "`app/api/service/*` (thin handlers), `app/session`, `app/actions.ts`",
    match: (f) =>
      f.startsWith("app/api/") || f === "app/session/route.ts" || f === "app/actions.ts",
  },
  {
    name: "pages (UI)",
    holds: "home, login, checkout with the payment option, confirmation, layout",
    match: (f) => f.startsWith("app/") && f.endsWith(".tsx"),
  },
  {
    name: "configuration",
    holds: "`next.config.ts`, `tsconfig.json`, `package.json`, `instrumentation.ts`, Playwright",
    match: (f) =>
      [
        "next.config.ts",
        "tsconfig.json",
        "package.json",
        "instrumentation.ts",
        "playwright.config.ts",
      ].includes(f),
  },
];

const notShipped = (f) =>
  /\.test\.tsx?$/.test(f) ||
  f.startsWith("e2e/") ||
  f.startsWith("test-support/") ||
  f.endsWith(".md");

/** Lines per concern of the host's committed files (git ls-files: what a clone has). */
export function countByConcern() {
  const listed = spawnSync("git", ["ls-files", HOST], { cwd: root, encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const files = listed.stdout
    .split("\n")
    .filter(Boolean)
    .map((f) => path.relative(HOST, f));
  const counts = CONCERNS.map(() => 0);
  const unplaced = [];
  for (const file of files) {
    if (notShipped(file)) continue;
    const i = CONCERNS.findIndex((c) => c.match(file));
    if (i < 0) {
      unplaced.push(file);
      continue;
    }
    const text = readFileSync(path.join(root, HOST, file), "utf8");
    counts[i] += text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
  }
  if (unplaced.length > 0) throw new Error(`files of no concern: ${unplaced.join(", ")}`);
  return CONCERNS.map((c, i) => ({ ...c, lines: counts[i] }));
}

export function figuresTable() {
  const rows = countByConcern().map((c) => `| ${c.name} | ${c.holds} | ${c.lines} |`);
  return [BEGIN, "| concern | files | lines |", "|---|---|---|", ...rows, END].join("\n");
}

/** The doc with its table replaced by the counted one. */
export function withFigures(doc) {
  const from = doc.indexOf(BEGIN);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${DOC}: the figures markers are missing`);
  return doc.slice(0, from) + figuresTable() + doc.slice(to + END.length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const doc = readFileSync(DOC, "utf8");
  const next = withFigures(doc);
  if (process.argv.includes("--check")) {
    if (next !== doc) {
      console.error(
        "docs/integrating.md: the minimal shop's figures are stale; run npm run docs:figures",
      );
      process.exit(1);
    }
    console.log("docs/integrating.md: figures match the files");
  } else {
    writeFileSync(DOC, next);
    console.log(figuresTable());
  }
}
