import { describe, expect, it } from "vitest";
import { ADAPTERS, adapterLines, codeLines, LIMIT } from "./adapter-lines.mjs";

// The thin-adapter rule counts lines of code, as SLOC counters do: not blank lines, not
// comment-only lines (docs/decisions/adapter-line-count.md).

describe("the adapters' lines of code (npm run adapter-lines)", () => {
  it("leave out blank lines, `//` lines and comment blocks, and count a line of code once", () => {
    const text = [
      "/**", // 1
      " * The doc comment of a member, `//` and `/*` in it.", // 2
      " */", // 3
      "export const a = 1; // a comment after code", // 4
      "", // 5
      "  // a comment alone", // 6
      "/* one */ /* two */", // 7
      "/* before */ const b = 2;", // 8
      "",
    ].join("\n");
    expect([...codeLines(text)]).toEqual([4, 8]);
  });

  it("count a string, a template literal or a regular expression holding `//` or `/*` as code", () => {
    // Each `/*` below, read as a comment's start, would swallow the lines after it.
    const text = [
      'const url = "http://127.0.0.1/";', // 1
      "const quoted = 'a /* b';", // 2
      "const t = `first", // 3
      "// inside the template: its text", // 4
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
      "${ { k: 1 }.k } /* still its text`;", // 5
      "const re = /[/*]+/g;", // 6
      "const after = 1;", // 7
      "// a comment alone", // 8
      "",
    ].join("\n");
    expect([...codeLines(text)]).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it.each(ADAPTERS)("%s stays within the limit in lines of code", (adapter) => {
    const { code, lines, files } = adapterLines(adapter);
    expect(files.length).toBeGreaterThan(0);
    expect(code).toBeLessThanOrEqual(lines);
    expect(code, `${adapter}: ${code} lines of code`).toBeLessThanOrEqual(LIMIT);
  });
});
