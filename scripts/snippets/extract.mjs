// The TypeScript code blocks of the integrator's docs (scripts/check-snippets.mjs): every ```ts /
// ```tsx block, with the marker on the line before its fence, if any:
//
//   <!-- snippet: stub=NAME -->   a fragment, checked inside the stub NAME (scripts/snippets/stubs.mjs)
//   <!-- snippet: file=PATH -->   a whole file of the quick start, at PATH in the app (any language);
//                                 compiled where it is used: the host scripts/minimal-shop.mjs
//                                 builds from these files (quickStartOf)
//   <!-- snippet: run=PHASE -->   a ```sh block of the quick start, run in the app (PHASE: build,
//                                 before `next build`; deploy, before the app starts)
//
// A block without a marker is a whole module and is checked as it stands.
import { readFileSync } from "node:fs";
import path from "node:path";

/** The docs whose snippets are checked, relative to the repository's root. */
export const SNIPPET_DOCS = [
  "docs/integrating.md",
  "packages/kit/README.md",
  "packages/drizzle-adapter/README.md",
  "packages/prisma-adapter/README.md",
  "packages/kysely-adapter/README.md",
  "emulator/README.md",
];

const FENCE = /^(\s*)```(ts|tsx|typescript)\s*$/;
const CLOSE = /^\s*```\s*$/;
const MARKER = /^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$/;
const ANY_FENCE = /^(\s*)```([\w-]*)\s*$/;

/** The marker's kind and value ("stub", "file" or "run"), or null for a line that is none. */
function markerOf(doc, index, line) {
  const marker = MARKER.exec(line ?? "");
  if (!marker) return null;
  const m = /^(stub|file|run)=([\w./@-]+)$/.exec(marker[1]);
  if (!m) throw new Error(`${doc}:${index + 1}: unknown snippet marker "${marker[1]}" (stub=NAME)`);
  return { kind: m[1], value: m[2] };
}

/** The block whose fence is at `lines[i]`: its unindented code and the index of its closing fence. */
function blockAt(doc, lines, i, indent) {
  let end = i + 1;
  while (end < lines.length && !CLOSE.test(lines[end])) end++;
  if (end === lines.length) throw new Error(`${doc}:${i + 1}: a code block is never closed`);
  const code = lines
    .slice(i + 1, end)
    .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
    .join("\n");
  return { code, end };
}

/**
 * @param {string} root the repository's root
 * @param {string} doc a document's path relative to root
 * @returns {{ doc: string, line: number, lang: "ts" | "tsx", stub: string | null, code: string }[]}
 *   `line`: the 1-based line of the block's first code line in the document
 */
export function snippetsOf(root, doc) {
  const lines = readFileSync(path.join(root, doc), "utf8").split("\n");
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const { code, end } = blockAt(doc, lines, i, open[1].length);
    const marker = markerOf(doc, i - 1, lines[i - 1]);
    const stub = marker?.kind === "stub" ? marker.value : null;
    const lang = open[2] === "tsx" ? "tsx" : "ts";
    const file = marker?.kind === "file" ? { file: marker.value } : {};
    found.push({ doc, line: i + 2, lang, stub, code, ...file });
    i = end;
  }
  return found;
}

/**
 * The quick start's blocks of `doc`: each `file=PATH` block (any language) as the file's text,
 * and each `run=PHASE` block's commands (one a line, comments and blank lines dropped). A path
 * given twice, or a run block that is not ```sh, is refused.
 * @returns {{ files: { path: string, line: number, text: string }[], runs: Record<string, string[]> }}
 */
export function quickStartOf(root, doc) {
  const lines = readFileSync(path.join(root, doc), "utf8").split("\n");
  const files = [];
  const runs = {};
  for (let i = 1; i < lines.length; i++) {
    const open = ANY_FENCE.exec(lines[i]);
    const marker = open && markerOf(doc, i - 1, lines[i - 1]);
    if (!marker || marker.kind === "stub") continue;
    const { code, end } = blockAt(doc, lines, i, open[1].length);
    if (marker.kind === "file") {
      if (files.some((f) => f.path === marker.value))
        throw new Error(`${doc}:${i}: ${marker.value} is given twice`);
      files.push({ path: marker.value, line: i + 2, text: `${code}\n` });
    } else {
      if (open[2] !== "sh") throw new Error(`${doc}:${i}: a run= block must be \`\`\`sh`);
      const commands = code.split("\n").map((l) => l.replace(/(^|\s)#.*$/, "").trim());
      runs[marker.value] = [...(runs[marker.value] ?? []), ...commands.filter(Boolean)];
    }
    i = end;
  }
  return { files, runs };
}
