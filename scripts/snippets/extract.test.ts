// The docs' code blocks as scripts/check-snippets.mjs extracts them: each ```ts / ```tsx block at
// its own line, unindented, with its stub marker; a broken fence or marker is refused.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { quickStartOf, SNIPPET_DOCS, snippetsOf } from "./extract.mjs";
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

describe("quickStartOf", () => {
  it("gives each file= block as its file (any language) and each run= block's commands", () => {
    const { root, name } = doc(
      [
        "<!-- snippet: file=prisma/schema/schema.prisma -->",
        "```prisma",
        "model A {",
        "  id String @id",
        "}",
        "```",
        "<!-- snippet: stub=shop -->",
        "```ts",
        "x;",
        "```",
        "   <!-- snippet: file=lib/db.ts -->",
        "   ```ts",
        "   export const db = 1;",
        "   ```",
        "<!-- snippet: run=build -->",
        "```sh",
        "node scripts/prisma.mjs generate   # the client",
        "",
        "# a comment",
        "```",
      ].join("\n"),
    );
    expect(quickStartOf(root, name)).toEqual({
      files: [
        { path: "prisma/schema/schema.prisma", line: 3, text: "model A {\n  id String @id\n}\n" },
        { path: "lib/db.ts", line: 13, text: "export const db = 1;\n" },
      ],
      runs: { build: ["node scripts/prisma.mjs generate"] },
    });
    expect(snippetsOf(root, name).map((s) => s.file)).toEqual([undefined, "lib/db.ts"]);
  });

  it("refuses a path given twice and a run block that is not sh", () => {
    const twice = doc(
      "<!-- snippet: file=a.ts -->\n```ts\n```\n<!-- snippet: file=a.ts -->\n```ts\n```\n",
    );
    expect(() => quickStartOf(twice.root, twice.name)).toThrow("a.ts is given twice");
    const run = doc("<!-- snippet: run=build -->\n```js\nx\n```\n");
    expect(() => quickStartOf(run.root, run.name)).toThrow("a run= block must be ```sh");
  });
});

describe("docs/integrating.md's quick start", () => {
  const root = path.resolve(import.meta.dirname, "../..");
  const { files, runs } = quickStartOf(root, "docs/integrating.md");

  // What scripts/minimal-shop.mjs builds the shop of: a block missing here fails its build
  // there; this says which, at once.
  it("gives every integration file of the minimal shop, and its build and deploy commands", () => {
    expect(files.map((f) => f.path).sort()).toEqual(
      [
        "app/actions.ts",
        "app/session/route.ts",
        "lib/current.ts",
        "lib/db.ts",
        "lib/service/callbacks.ts",
        "lib/service/checkout.ts",
        "lib/session.ts",
        "lib/shop.ts",
        "prisma.config.ts",
        "prisma/schema/schema.prisma",
        "proxy.ts",
        "scripts/prisma.mjs",
      ].sort(),
    );
    expect(runs.build?.length).toBeGreaterThan(0);
    expect(runs.deploy?.length).toBeGreaterThan(0);
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
