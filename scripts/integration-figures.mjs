#!/usr/bin/env node
import { spawnSync } from "node:child_process";
// The figures docs/integrating.md gives for the hosts of examples/ (what each integrator wrote,
// by concern) and for the ORM adapters (their lines of code as scripts/adapter-lines.mjs counts
// them), counted from the files, never typed by hand: `npm run docs:figures` rewrites each table
// between its markers, `--check` (run by scripts/integration-figures.test.ts in npm test) fails
// when a table no longer matches the files.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ADAPTERS, adapterLines, LIMIT } from "./adapter-lines.mjs";
import { initLines } from "./init-lines.mjs";
import { quickStartOf } from "./snippets/extract.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DOC = path.join(root, "docs/integrating.md");

/**
 * Each concern: what it holds in words, and which of the host's files are it (paths relative to
 * the host; tests, e2e journeys and test support are not what an integrator ships, so they are
 * counted by nobody). A file matched by no concern fails the count: a new file must be placed.
 */
const MINIMAL_SHOP = [
  {
    name: "the adapter's callbacks (`lib/service/callbacks.ts`)",
    holds:
      "status names (the kit's defaults), open cart, order from the cart, a placed order's lines, shopper source; the database, transaction type, session identity and checkout body init's wiring takes",
    match: (f) => f === "lib/service/callbacks.ts",
  },
  {
    name: "wiring (`lib/service/checkout.ts`; `wiring.ts` is init's, as init writes it)",
    holds: "routes and form fields (the kit's defaults)",
    match: (f) => f.startsWith("lib/service/"),
  },
  {
    name: "route handlers and actions",
    holds:
      "`app/actions.ts` (cart lock, card payment and its trade-in step); its `app/api/service/*` routes are what `init` writes",
    match: (f) => f === "app/actions.ts",
  },
  {
    name: "the session identity on iron-session",
    holds:
      "`lib/session.ts`, `lib/current.ts`, `proxy.ts`, `app/session/route.ts` (replaced at sign-in, a guest's cart carried over, and at sign-out)",
    match: (f) =>
      ["lib/session.ts", "lib/current.ts", "proxy.ts", "app/session/route.ts"].includes(f),
  },
  {
    name: "the shop itself (models, catalog, carts, orders)",
    holds: "`prisma/schema/schema.prisma`, `lib/db.ts`, `lib/shop.ts`",
    match: (f) => /^lib\/[^/]+\.ts$/.test(f) || f === "prisma/schema/schema.prisma",
  },
  {
    name: "pages (UI)",
    holds:
      "home, login, checkout with the payment option, confirmation and its settle step, layout",
    match: (f) => f.startsWith("app/") && f.endsWith(".tsx"),
  },
  {
    name: "configuration and the offline Prisma CLI",
    holds:
      "`next.config.ts`, `tsconfig.json`, `package.json`, `prisma.config.ts`, `scripts/prisma.mjs` (its migrations are the adapter's, copied, and one generated from the schema at build: not written by hand)",
    match: (f) =>
      [
        "next.config.ts",
        "tsconfig.json",
        "package.json",
        "prisma.config.ts",
        "scripts/prisma.mjs",
      ].includes(f),
  },
];

/** The serverless shop's concerns (examples/serverless-shop): the same first three, then what its
 *  stack adds (Better Auth beside the guest identity, the card stand-in, its own look). */
const SERVERLESS_SHOP = [
  {
    name: "the adapter's callbacks (`lib/service/callbacks.ts`)",
    holds:
      "status names (the kit's defaults), open cart, order from the cart, a placed order's lines, shopper source",
    match: (f) => f === "lib/service/callbacks.ts",
  },
  {
    name: "wiring (`lib/service/wiring.ts`, `checkout.ts`)",
    holds:
      "the adapter and the API client, session identity over the guest cookie and Better Auth, deps, the two job routes' runs, route inputs; routes, form fields and checkout body (the kit's defaults)",
    match: (f) => f.startsWith("lib/service/"),
  },
  {
    name: "route handlers and actions",
    holds:
      "`app/api/service/*` (thin handlers, the two job routes among them), `app/actions.ts` (cart lock, the card order against its confirmation)",
    match: (f) => f.startsWith("app/api/service/") || f === "app/actions.ts",
  },
  {
    name: "sign-in: Better Auth beside the guest identity",
    holds:
      "`lib/auth.ts`, `lib/guest.ts`, `lib/current.ts`, `proxy.ts`, `app/konto/route.ts` (sign-up, sign-in, sign-out: identity kept, replaced)",
    match: (f) =>
      ["lib/auth.ts", "lib/guest.ts", "lib/current.ts", "proxy.ts", "app/konto/route.ts"].includes(
        f,
      ),
  },
  {
    name: "the card stand-in (a processor's SDK and its server)",
    holds: "`lib/card/card-sdk.ts`, `app/api/card-processor/confirm` (records each confirmation)",
    match: (f) => f.startsWith("lib/card/") || f.startsWith("app/api/card-processor/"),
  },
  {
    name: "the shop itself (tables, data, carts, orders)",
    holds: "`lib/schema.ts` (its tables and Better Auth's), `lib/db.ts`, `lib/shop.ts`",
    match: (f) => /^lib\/[^/]+\.ts$/.test(f),
  },
  {
    name: "pages (UI), in German, with its own look",
    holds:
      "home, sign-in and sign-up, checkout with the payment option's classNames and messages, confirmation, layout, `app/shop.css`",
    match: (f) => f.startsWith("app/") && (f.endsWith(".tsx") || f.endsWith(".css")),
  },
  {
    name: "configuration and the deploy step",
    holds:
      "`next.config.ts`, `tsconfig.json`, `package.json`, `instrumentation.ts`, `drizzle.config.ts`, `scripts/migrate.mjs` (migrations and seed before a release)",
    match: (f) =>
      [
        "next.config.ts",
        "tsconfig.json",
        "package.json",
        "instrumentation.ts",
        "drizzle.config.ts",
        "scripts/migrate.mjs",
      ].includes(f),
  },
  {
    name: "migrations (generated, `drizzle/`)",
    holds:
      "the tables' SQL and drizzle-kit's snapshot, generated from `lib/schema.ts`: not written by hand",
    match: (f) => f.startsWith("drizzle/"),
  },
];

/** Each host: its folder, the doc whose quick start it is also made of (its `file=PATH`
 *  blocks: scripts/snippets/extract.mjs), and its concerns; the first three are the integration's
 *  own code. */
export const HOSTS = {
  "minimal-shop": {
    dir: "examples/minimal-shop",
    quickStart: "docs/integrating.md",
    concerns: MINIMAL_SHOP,
  },
  "serverless-shop": { dir: "examples/serverless-shop", concerns: SERVERLESS_SHOP },
};
const markers = (name) => ({
  begin: `<!-- figures:${name} (npm run docs:figures) -->`,
  end: `<!-- /figures:${name} -->`,
});

const notShipped = (f) =>
  /\.test\.tsx?$/.test(f) ||
  f.startsWith("e2e/") ||
  f.startsWith("test-support/") ||
  f === "playwright.config.ts" ||
  f === "vitest.config.ts" ||
  f.endsWith(".md");

/** Lines per concern of the host's committed files (git ls-files: what a clone has). */
export function countByConcern(name = "minimal-shop") {
  const { dir: HOST, concerns: CONCERNS, quickStart } = HOSTS[name];
  const listed = spawnSync("git", ["ls-files", HOST], { cwd: root, encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const files = listed.stdout
    .split("\n")
    .filter(Boolean)
    .map((f) => ({
      file: path.relative(HOST, f),
      text: () => readFileSync(path.join(root, f), "utf8"),
    }));
  if (quickStart)
    for (const block of quickStartOf(root, quickStart).files)
      files.push({ file: block.path, text: () => block.text });
  const counts = CONCERNS.map(() => 0);
  const unplaced = [];
  for (const { file, text: read } of files) {
    if (notShipped(file)) continue;
    const i = CONCERNS.findIndex((c) => c.match(file));
    if (i < 0) {
      unplaced.push(file);
      continue;
    }
    const text = read();
    counts[i] += text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
  }
  if (unplaced.length > 0) throw new Error(`files of no concern: ${unplaced.join(", ")}`);
  return CONCERNS.map((c, i) => ({ ...c, lines: counts[i] }));
}

export function figuresTable(name = "minimal-shop") {
  const concerns = countByConcern(name);
  const rows = concerns.map((c) => `| ${c.name} | ${c.holds} | ${c.lines} |`);
  const integration = concerns.slice(0, 3).reduce((n, c) => n + c.lines, 0);
  const total = `| **the integration** (the first three) | callbacks, wiring, route handlers | **${integration}** |`;
  const { begin, end } = markers(name);
  return [begin, "| concern | files | lines |", "|---|---|---|", ...rows, total, end].join("\n");
}

/** Each ORM adapter's lines as the thin-adapter rule counts them (adapter-lines.mjs): lines of
 *  code per file and in all (the limit's figure), and all lines beside, for reference. */
export function adapterLinesTable() {
  const rows = ADAPTERS.map(adapterLines).map(({ adapter, files, code, lines }) => {
    const counted = files.map((f) => `\`${f.file}\` ${f.code}`).join(", ");
    return `| \`${adapter}\` | ${counted} | ${code} | ${lines} |`;
  });
  const { begin, end } = markers("adapter-lines");
  const head = `| adapter | files (lines of code) | lines of code (at most ${LIMIT}) | all lines |`;
  return [begin, head, "|---|---|---|---|", ...rows, end].join("\n");
}

/** The lines the minimal shop's integrator wrote after init (scripts/init-lines.mjs), a table. */
export function initLinesTable() {
  const rows = initLines();
  const { begin, end } = markers("init-lines");
  return [
    begin,
    "| file init writes, kept in the shop's own version | lines written beyond init's |",
    "|---|---|",
    ...rows.map(({ file, lines }) => `| \`${file}\` | ${lines} |`),
    `| **after init** | **${rows.reduce((sum, r) => sum + r.lines, 0)}** |`,
    end,
  ].join("\n");
}

/** The doc with each host's table, the adapters' lines and the init-lines table replaced by the
 *  counted ones. */
export function withFigures(doc) {
  let next = doc;
  const tables = [
    ...Object.keys(HOSTS).map((name) => [name, () => figuresTable(name)]),
    ["adapter-lines", adapterLinesTable],
    ["init-lines", initLinesTable],
  ];
  for (const [name, table] of tables) {
    const { begin, end } = markers(name);
    const from = next.indexOf(begin);
    const to = next.indexOf(end);
    if (from < 0 || to < from) throw new Error(`${DOC}: the ${name} figures markers are missing`);
    next = next.slice(0, from) + table() + next.slice(to + end.length);
  }
  return next;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const doc = readFileSync(DOC, "utf8");
  const next = withFigures(doc);
  if (process.argv.includes("--check")) {
    if (next !== doc) {
      console.error("docs/integrating.md: the hosts' figures are stale; run npm run docs:figures");
      process.exit(1);
    }
    console.log("docs/integrating.md: figures match the files");
  } else {
    writeFileSync(DOC, next);
    for (const name of Object.keys(HOSTS)) console.log(figuresTable(name));
    console.log(adapterLinesTable());
    console.log(initLinesTable());
  }
}
