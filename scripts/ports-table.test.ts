import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DOC, portsTable, withPortsTable } from "./ports-table";

// The ports table in docs/integrating.md comes from the kit's descriptions of its ports and
// checks: a port or check added without rerunning `npm run docs:figures` fails here.
describe("docs/integrating.md's table of the ports", () => {
  it("is the one made from the kit's descriptions", () => {
    const doc = readFileSync(DOC, "utf8");
    expect(withPortsTable(doc), "run npm run docs:figures").toBe(doc);
  });

  it("names every check once per port it proves", () => {
    expect(portsTable()).toContain("`one-order-per-cart`");
    expect(portsTable()).toMatch(/\| `TokenStore` \|[^\n]*`one-grant`/);
  });
});
