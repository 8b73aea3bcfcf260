// The TypeScript code blocks of the integrator's docs (scripts/check-snippets.mjs): every ```ts /
// ```tsx block, with the marker on the line before its fence, if any:
//
//   <!-- snippet: stub=NAME -->   a fragment, checked inside the stub NAME (scripts/snippets/stubs.mjs)
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
    let end = i + 1;
    while (end < lines.length && !CLOSE.test(lines[end])) end++;
    if (end === lines.length) throw new Error(`${doc}:${i + 1}: a code block is never closed`);
    const indent = open[1].length;
    const code = lines
      .slice(i + 1, end)
      .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
      .join("\n");
    const marker = MARKER.exec(lines[i - 1] ?? "");
    let stub = null;
    if (marker) {
      const m = /^stub=([\w-]+)$/.exec(marker[1]);
      if (!m) throw new Error(`${doc}:${i}: unknown snippet marker "${marker[1]}" (stub=NAME)`);
      stub = m[1];
    }
    found.push({ doc, line: i + 2, lang: open[2] === "tsx" ? "tsx" : "ts", stub, code });
    i = end;
  }
  return found;
}
