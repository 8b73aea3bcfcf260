// No module of the kit imports one that imports it back, directly or through others (types
// included): the shared types live in leaf modules, so a module's dependencies read one way.
// A graph walk over the relative imports of src/ (tests apart).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const src = import.meta.dirname;

/** Every module of `dir` (recursively) and the modules it imports by relative path. */
function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        const text = readFileSync(file, "utf8");
        const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((m) =>
          path.join(path.dirname(file), (m[1] as string).replace(/\.js$/, ".ts")),
        );
        graph.set(
          file,
          targets.map((t) => (graph.has(t) || t.endsWith(".ts") ? t : `${t}.ts`)),
        );
      }
    }
  };
  walk(dir);
  // A ".js" import of a .tsx module.
  for (const [file, targets] of graph)
    graph.set(
      file,
      targets.map((t) => (graph.has(t) ? t : t.replace(/\.ts$/, ".tsx"))),
    );
  return graph;
}

/** The cycles of `graph`, each as the chain of modules that closes it (depth-first search). */
function importCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

describe("the kit's modules", () => {
  it("import no module that imports them back (no import cycle)", () => {
    const name = (file: string) => path.relative(src, file);
    const cycles = importCycles(importGraph(src)).map((c) => c.map(name).join(" → "));
    expect(cycles).toEqual([]);
  });

  it("the walk finds a cycle where there is one", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(importCycles(graph)).toEqual([["a", "b", "c", "a"]]);
  });
});
