import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { countByConcern, HOSTS, type HostName, withFigures } from "./integration-figures.mjs";

// The hosts' figures in docs/integrating.md come from their files: a change to a host that
// leaves its table stale fails here (npm run docs:figures rewrites them).

describe("docs/integrating.md's figures of the hosts of examples/", () => {
  it("are the counts of its committed files, by concern", () => {
    const doc = readFileSync(path.join(import.meta.dirname, "../docs/integrating.md"), "utf8");
    expect(withFigures(doc), "run npm run docs:figures").toBe(doc);
  });

  it.each(Object.keys(HOSTS) as HostName[])(
    "place every shipped file of %s in a concern, and count some lines in each",
    (host) => {
      const concerns = countByConcern(host);
      expect(concerns.map((c) => c.lines).every((n) => n > 0)).toBe(true);
    },
  );
});
