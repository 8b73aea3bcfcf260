import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// `service-integration-kit init`: writes into an existing Next.js app the files every host of the
// kit has the same (the five routes of the merchant side, the two job routes, the instrumentation
// hook, the wiring) and a callbacks file whose members the integrator fills in, for the adapter
// of the ORM the app uses. Templates are files in the package (templates/init/), filled with the
// app's import path of the wiring and the adapter's entry; no file is overwritten unless asked.

/** The kit's templates/init/, beside dist/ and src/ in the package. */
const TEMPLATES = fileURLToPath(new URL("../../templates/init/", import.meta.url));

export type Orm = "drizzle" | "prisma";
export type Database = "pg" | "sqlite";

export interface InitOptions {
  /** The app's folder (its package.json). */
  cwd: string;
  /** Overrides the ORM found in package.json. */
  orm?: Orm;
  /** Overrides the database found in package.json (pg unless only SQLite's driver is there). */
  database?: Database;
  /** Lists what would be written; writes nothing. */
  dryRun?: boolean;
  /** Overwrites existing files without asking. */
  force?: boolean;
  /** Asked once per existing file when given (an interactive terminal): true overwrites it. */
  ask?: (question: string) => Promise<boolean>;
  /** Where the report goes, a line at a time. */
  out?: (line: string) => void;
}

export interface InitResult {
  orm: Orm;
  database: Database;
  /** Files written (or, with dryRun, that would be), relative to the app. */
  written: string[];
  /** Files that existed and were left alone. */
  skipped: string[];
  /** The .env.example entries appended (or that would be). */
  envAdded: string[];
}

/** A problem with the app or the arguments: the CLI prints its message and exits 1. */
export class InitError extends Error {}

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function readJson<T>(file: string): T | null {
  if (!existsSync(file)) return null;
  // tsconfig.json may hold comments and trailing commas (JSONC): dropped before parsing.
  const text = readFileSync(file, "utf8")
    .replace(/("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_, string) => string ?? "")
    .replace(/,(\s*[}\]])/g, "$1");
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new InitError(`${file} is not valid JSON`);
  }
}

/** The ORM and database the app's package.json names (or the options override). */
export function detectStack(
  pkg: PackageJson,
  override: { orm?: Orm; database?: Database } = {},
): { orm: Orm; database: Database } {
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  const has = (name: string) => name in deps;
  const drizzle = has("drizzle-orm") || has("@service-integration/drizzle-adapter");
  const prisma =
    has("@prisma/client") || has("prisma") || has("@service-integration/prisma-adapter");
  let orm = override.orm;
  if (!orm) {
    if (drizzle && prisma)
      throw new InitError(
        "package.json names both Drizzle (drizzle-orm) and Prisma (@prisma/client): pass --orm drizzle or --orm prisma",
      );
    if (!drizzle && !prisma)
      throw new InitError(
        "no ORM found in package.json: install Drizzle (drizzle-orm, with @service-integration/drizzle-adapter) or Prisma (@prisma/client, with @service-integration/prisma-adapter), or pass --orm drizzle|prisma",
      );
    orm = drizzle ? "drizzle" : "prisma";
  }
  const sqliteDriver = orm === "drizzle" ? "better-sqlite3" : "@prisma/adapter-better-sqlite3";
  const pgDriver = orm === "drizzle" ? "pg" : "@prisma/adapter-pg";
  const database = override.database ?? (has(sqliteDriver) && !has(pgDriver) ? "sqlite" : "pg");
  return { orm, database };
}

/** `app/` or `src/app/`: the App Router's folder, and the folder beside it for lib/ and the hook. */
export function detectAppDir(cwd: string): { app: string; base: string } {
  if (existsSync(path.join(cwd, "app"))) return { app: "app", base: "" };
  if (existsSync(path.join(cwd, "src/app"))) return { app: "src/app", base: "src" };
  throw new InitError(
    `no app/ or src/app/ in ${cwd}: run init in a Next.js app that uses the App Router`,
  );
}

/** A tsconfig path alias onto the app's own files (`"@/*": ["./*"]` or `["./src/*"]`): its
 *  prefix and the folder it maps to. `@/` first, else the first alias of that form. */
export function detectAlias(cwd: string): { prefix: string; target: string } | null {
  const tsconfig = readJson<{ compilerOptions?: { paths?: Record<string, string[]> } }>(
    path.join(cwd, "tsconfig.json"),
  );
  const entries = Object.entries(tsconfig?.compilerOptions?.paths ?? {});
  const onto = entries.flatMap(([key, targets]) => {
    const to = targets[0];
    return key.endsWith("/*") && to?.endsWith("/*")
      ? [{ prefix: key.slice(0, -1), target: path.posix.normalize(to.slice(0, -2)) }]
      : [];
  });
  return onto.find((a) => a.prefix === "@/") ?? onto[0] ?? null;
}

/** How `fromFile` imports `module` (both relative to the app, no extension). */
function importPath(
  fromFile: string,
  module: string,
  alias: { prefix: string; target: string } | null,
): string {
  if (alias) {
    const rel = path.posix.relative(alias.target === "." ? "" : alias.target, module);
    if (!rel.startsWith("..")) return `${alias.prefix}${rel}`;
  }
  const rel = path.posix.relative(path.posix.dirname(fromFile), module);
  return rel.startsWith(".") ? rel : `./${rel}`;
}

interface Planned {
  file: string;
  text: string;
}

/** Each file init writes: its path in the app and its text. */
export function plan(
  cwd: string,
  stack: { orm: Orm; database: Database },
): { files: Planned[]; base: string } {
  const { app, base } = detectAppDir(cwd);
  const alias = detectAlias(cwd);
  const inBase = (file: string) => path.posix.join(base, file);
  const wiring = inBase("lib/service/wiring");
  const callbacksFile = inBase("lib/service/callbacks.ts");
  const fill = (template: string, file: string) =>
    readFileSync(path.join(TEMPLATES, template), "utf8")
      .replaceAll("{{wiring}}", importPath(file, wiring, alias))
      .replaceAll("{{dialect}}", stack.database)
      .replaceAll("{{callbacksFile}}", callbacksFile);
  const routes = [
    "shopper_data",
    "purchase_data",
    "checkout",
    "pending-order",
    "webhooks/order",
    "jobs/trade-in-retry",
    "jobs/notification-sweep",
  ].map((route) => ({
    template: `common/app/api/service/${route}/route.ts.tmpl`,
    file: `${app}/api/service/${route}/route.ts`,
  }));
  const callbacks =
    stack.orm === "prisma"
      ? "prisma/callbacks.ts.tmpl"
      : `drizzle/callbacks.${stack.database}.ts.tmpl`;
  const files = [
    ...routes,
    { template: "common/instrumentation.ts.tmpl", file: inBase("instrumentation.ts") },
    { template: `${stack.orm}/wiring.ts.tmpl`, file: `${wiring}.ts` },
    { template: callbacks, file: callbacksFile },
  ];
  return { files: files.map(({ template, file }) => ({ file, text: fill(template, file) })), base };
}

/** The template's entries missing from `existing` (a name counts as there when set or commented
 *  out, `# NAME=`), each with the comment lines above it. */
export function missingEnvEntries(existing: string): { names: string[]; text: string } {
  const present = new Set(
    [...existing.matchAll(/^[ \t]*#?[ \t]*([A-Za-z_][A-Za-z0-9_]*)=/gm)].map((m) => m[1]),
  );
  const names: string[] = [];
  const lines: string[] = [];
  let comments: string[] = [];
  for (const line of readFileSync(path.join(TEMPLATES, "common/env.example.tmpl"), "utf8")
    .split("\n")
    .filter(Boolean)) {
    const name = /^([A-Z_][A-Z0-9_]*)=/.exec(line)?.[1];
    if (!name) {
      comments.push(line);
      continue;
    }
    if (!present.has(name)) {
      names.push(name);
      lines.push(...comments, line);
    }
    comments = [];
  }
  return { names, text: lines.length ? `${lines.join("\n")}\n` : "" };
}

/** Writes the files and the .env.example entries; reports each. */
export async function init(options: InitOptions): Promise<InitResult> {
  const out = options.out ?? ((line: string) => console.log(line));
  const { cwd } = options;
  const pkg = readJson<PackageJson>(path.join(cwd, "package.json"));
  if (!pkg) throw new InitError(`no package.json in ${cwd}: run init in your Next.js app's folder`);
  const stack = detectStack(pkg, options);
  const { files, base } = plan(cwd, stack);
  const result: InitResult = { ...stack, written: [], skipped: [], envAdded: [] };
  const what = `${stack.orm === "drizzle" ? "Drizzle" : "Prisma"} on ${stack.database === "pg" ? "PostgreSQL" : "SQLite"}`;
  out(
    `service-integration-kit init: ${what}${options.dryRun ? " (dry run: nothing written)" : ""}`,
  );
  const verb = options.dryRun ? "would write" : "wrote";

  for (const { file, text } of files) {
    const target = path.join(cwd, file);
    if (existsSync(target)) {
      const same = readFileSync(target, "utf8") === text;
      const overwrite =
        !same &&
        !options.dryRun &&
        (options.force || (await options.ask?.(`${file} exists: overwrite it? (y/N) `)) === true);
      if (!overwrite) {
        result.skipped.push(file);
        out(
          `  skipped      ${file} (${same ? "already as init writes it" : "exists; --force overwrites"})`,
        );
        continue;
      }
    }
    if (!options.dryRun) {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
    result.written.push(file);
    out(`  ${verb.padEnd(12)} ${file}`);
  }

  const envFile = path.join(cwd, ".env.example");
  const existing = existsSync(envFile) ? readFileSync(envFile, "utf8") : "";
  const env = missingEnvEntries(existing);
  if (env.names.length > 0) {
    if (!options.dryRun) {
      const gap = existing === "" || existing.endsWith("\n") ? "" : "\n";
      writeFileSync(envFile, `${existing}${gap}${env.text}`);
    }
    result.envAdded = env.names;
    out(
      `  ${(options.dryRun ? "would add" : "added").padEnd(12)} .env.example: ${env.names.join(", ")}`,
    );
  } else out("  skipped      .env.example (has every entry)");

  const callbacks = path.posix.join(base, "lib/service/callbacks.ts");
  const tables =
    stack.orm === "drizzle"
      ? "re-export the adapter's tables from your Drizzle schema, spread serviceOrderColumns() into your orders table, then generate and apply a migration (npx drizzle-kit generate && npx drizzle-kit migrate)"
      : "copy the adapter's prisma/service.prisma into your schema folder, add its Order columns, start your migrations with its initial migration, then npx prisma migrate deploy";
  out("");
  out("Next:");
  out(`  1. Fill in every body of ${callbacks} (each throws "TODO: …" until you do).`);
  out(`  2. The tables: ${tables} (@service-integration/${stack.orm}-adapter's README).`);
  out(
    "  3. Set the SERVICE_* settings (.env.example), then prove it: the kit's conformance suite,",
  );
  out("     the emulator's go-live journeys and `npx service-emulator readiness --strict`.");
  return result;
}
