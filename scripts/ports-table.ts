// The table of the ports in docs/integrating.md: each port of the kit's shop-ports.ts, whether the
// kit needs it, who supplies it on an adapter package, and which conformance checks prove it,
// made from the kit's own descriptions (`@service-integration/kit/testing`: SHOP_PORTS, CHECK_PORTS), never
// typed by hand. `npm run docs:figures` rewrites it between its markers;
// scripts/ports-table.test.ts fails when it is stale.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CHECK_PORTS, SHOP_PORTS } from "@service-integration/kit/testing";

export const DOC = path.resolve(import.meta.dirname, "../docs/integrating.md");
const BEGIN = "<!-- figures:ports (npm run docs:figures) -->";
const END = "<!-- /figures:ports -->";

export function portsTable(): string {
  const rows = SHOP_PORTS.map((p) => {
    const checks = Object.entries(CHECK_PORTS)
      .filter(([, ports]) => ports.includes(p.port))
      .map(([key]) => `\`${key}\``);
    return `| \`${p.port}\` | ${p.for} | ${p.required ? "required" : "optional"} | ${p.suppliedBy} | ${checks.length > 0 ? checks.join(", ") : "none (its types only)"} |`;
  });
  return [
    BEGIN,
    "| port | for | | supplied by | proven by the conformance checks |",
    "|---|---|---|---|---|",
    ...rows,
    END,
  ].join("\n");
}

/** The doc with its table of the ports replaced by the one made now. */
export function withPortsTable(doc: string): string {
  const from = doc.indexOf(BEGIN);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${DOC}: the ports table's markers are missing`);
  return doc.slice(0, from) + portsTable() + doc.slice(to + END.length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const doc = readFileSync(DOC, "utf8");
  writeFileSync(DOC, withPortsTable(doc));
  console.log(portsTable());
}
