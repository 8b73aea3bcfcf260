// Each ORM adapter's source lines, counted as the thin-adapter rule counts them: every file
// under the package's src/ except tests (*.test.ts), test support (src/test-support/), schemas
// (a file named schema.ts) and migrations (kept outside src/, under prisma/). The limit's figure
// is lines of code as SLOC counters count them: a line holding something other than white space
// and comments; blank lines and comment-only lines (`//` lines, `/* … */` and `/** … */` blocks)
// are not adapter logic, and the API reference requires the doc comments
// (docs/decisions/adapter-line-count.md). All lines (`wc -l`) are printed beside, for reference.
// Exits 1 when an adapter is over the limit (at most 500 lines of code each).
// docs/integrating.md's figures (scripts/integration-figures.mjs) read the same count.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const LIMIT = 500;
const root = path.resolve(import.meta.dirname, "..");
export const ADAPTERS = [
  "packages/drizzle-adapter",
  "packages/prisma-adapter",
  "packages/kysely-adapter",
];

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "test-support" ? [] : sources(file);
    if (!/\.(ts|tsx|mts|js|mjs)$/.test(entry.name)) return [];
    if (/\.test\.[a-z]+$/.test(entry.name) || entry.name === "schema.ts") return [];
    return [file];
  });
}

/** After these (the last character of code before a `/`), a `/` opens a regular expression. */
const BEFORE_REGEX = new Set([..."(,=:[!&|?{};+-*%<>~^"]);

/**
 * The lines of `text` holding code (1-based line numbers): a small scanner of TypeScript's
 * lexical states (code, strings, template literals with their `${…}`, regular expressions, line
 * and block comments), so a `//` or `/*` inside a string or a regular expression is code, and a
 * line inside a comment block, or holding only a comment, is not.
 */
export function codeLines(text) {
  const code = new Set();
  // What encloses the current position: "code" (the file, or a template's `${…}`, counting its
  // braces) and "template" (a template literal's text).
  const stack = [{ kind: "code", braces: 0 }];
  let line = 1;
  let last = ""; // the last character of code outside strings and comments
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") {
      line++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (top.kind === "template") {
      code.add(line);
      if (c === "\\") {
        if (text[i + 1] === "\n") line++;
        i++;
      } else if (c === "`") {
        stack.pop();
        last = "`";
      } else if (c === "$" && text[i + 1] === "{") {
        stack.push({ kind: "code", braces: 0 });
        i++;
      }
      continue;
    }
    if (/\s/.test(c)) continue;
    if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i + 1] !== "\n") i++;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      i += 2;
      while (i < text.length && !(text[i] === "*" && text[i + 1] === "/")) {
        if (text[i] === "\n") line++;
        i++;
      }
      i++;
      continue;
    }
    code.add(line);
    if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c && text[i] !== "\n"; i++)
        if (text[i] === "\\") i++;
      last = c;
    } else if (c === "`") {
      stack.push({ kind: "template" });
    } else if (c === "/" && (last === "" || BEFORE_REGEX.has(last))) {
      let inClass = false;
      for (i++; i < text.length && text[i] !== "\n"; i++) {
        if (text[i] === "\\") i++;
        else if (text[i] === "[") inClass = true;
        else if (text[i] === "]") inClass = false;
        else if (text[i] === "/" && !inClass) break;
      }
      last = "/";
    } else {
      if (c === "{") top.braces++;
      if (c === "}" && stack.length > 1 && top.braces === 0) stack.pop();
      else if (c === "}") top.braces--;
      last = c;
    }
  }
  return code;
}

/** The adapter's counted files (relative to the package), each with its lines of code (`code`,
 *  the limit's figure) and all its lines (`lines`), and both totals. */
export function adapterLines(adapter) {
  const files = sources(path.join(root, adapter, "src"))
    .sort()
    .map((file) => {
      const text = readFileSync(file, "utf8");
      return {
        file: path.relative(path.join(root, adapter), file),
        code: codeLines(text).size,
        lines: text.split("\n").length - 1,
      };
    });
  const sum = (key) => files.reduce((n, f) => n + f[key], 0);
  return { adapter, files, code: sum("code"), lines: sum("lines") };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let over = false;
  for (const { adapter, files, code, lines } of ADAPTERS.map(adapterLines)) {
    console.log(`${adapter}  (code / all lines)`);
    for (const f of files)
      console.log(`  ${String(f.code).padStart(5)} ${String(f.lines).padStart(5)}  ${f.file}`);
    console.log(
      `  ${String(code).padStart(5)} ${String(lines).padStart(5)}  total (limit ${LIMIT} lines of code)`,
    );
    if (code > LIMIT) over = true;
  }
  process.exit(over ? 1 : 0);
}
