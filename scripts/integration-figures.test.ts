import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { countByConcern, withFigures } from "./integration-figures.mjs";

// The minimal shop's figures in docs/integrating.md come from its files: a change to the shop
// that leaves the table stale fails here (npm run docs:figures rewrites it).

describe("docs/integrating.md's figures of the minimal shop", () => {
  it("are the counts of its committed files, by concern", () => {
    const doc = readFileSync(path.join(import.meta.dirname, "../docs/integrating.md"), "utf8");
    expect(withFigures(doc), "run npm run docs:figures").toBe(doc);
  });

  it("place every shipped file in a concern, and count some lines in each", () => {
    const concerns = countByConcern();
    expect(concerns.map((c) => c.lines).every((n) => n > 0)).toBe(true);
  });
});
