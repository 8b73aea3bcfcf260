// The docs' code blocks as scripts/check-snippets.mjs extracts them: each ```ts / ```tsx block at
// its own line, unindented, with its stub marker; a broken fence or marker is refused.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SNIPPET_DOCS, snippetsOf } from "./extract.mjs";
import { STUBS } from "./stubs.mjs";

const dirs: string[] = [];
function doc(text: string): { root: string; name: string } {
  const root = mkdtempSync(path.join(tmpdir(), "snippets-"));
  dirs.push(root);
  writeFileSync(path.join(root, "doc.md"), text);
  return { root, name: "doc.md" };
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("snippetsOf", () => {
  it("gives each TypeScript block at its first code line, unindented, with its stub", () => {
    const { root, name } = doc(
      [
        "# Title",
        "```sh",
        "npm install",
        "```",
        "1. A step:",
        "   <!-- snippet: stub=shop -->",
        "   ```ts",
        "   const a = 1;",
        "     const b = 2;",
        "   ```",
        "```tsx",
        "export const c = <p />;",
        "```",
      ].join("\n"),
    );
    expect(snippetsOf(root, name)).toEqual([
      { doc: name, line: 8, lang: "ts", stub: "shop", code: "const a = 1;\n  const b = 2;" },
      { doc: name, line: 12, lang: "tsx", stub: null, code: "export const c = <p />;" },
    ]);
  });

  it("refuses an unknown marker and a block never closed", () => {
    const marker = doc("<!-- snippet: skip -->\n```ts\nx;\n```\n");
    expect(() => snippetsOf(marker.root, marker.name)).toThrow('unknown snippet marker "skip"');
    const open = doc("```ts\nx;\n");
    expect(() => snippetsOf(open.root, open.name)).toThrow(
      "doc.md:1: a code block is never closed",
    );
  });
});

describe("the docs' snippets", () => {
  const root = path.resolve(import.meta.dirname, "../..");
  const snippets = SNIPPET_DOCS.flatMap((d) => snippetsOf(root, d));

  it("are found in every doc, and each fragment names a stub that exists", () => {
    expect(new Set(snippets.map((s) => s.doc))).toEqual(new Set(SNIPPET_DOCS));
    expect(snippets.filter((s) => s.stub && !(s.stub in STUBS))).toEqual([]);
  });

  it("elide nothing: no … in code (a fragment is checked inside its stub instead)", () => {
    const elided = snippets
      .filter((s) => s.code.split("\n").some((l) => l.split("//")[0]?.includes("…")))
      .map((s) => `${s.doc}:${s.line}`);
    expect(elided).toEqual([]);
  });
});
