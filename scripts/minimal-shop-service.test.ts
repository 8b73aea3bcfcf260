import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The minimal shop (examples/minimal-shop) uses lib/service exactly as it is: compiled in place
// through its tsconfig alias @service/* → ../../lib/service/*, never a copy that could drift.
const root = path.resolve(import.meta.dirname, "..");
const shop = path.join(root, "examples/minimal-shop");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if ([".next", "node_modules", "test-results"].includes(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) ? [full] : [];
  });
}

const serviceFiles = new Map(
  readdirSync(path.join(root, "lib/service"))
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => [readFileSync(path.join(root, "lib/service", name), "utf8"), name]),
);

describe("the minimal shop's lib/service", () => {
  const files = sources(shop);

  it("is the repository's own: the alias points at /lib/service", () => {
    const tsconfig = JSON.parse(readFileSync(path.join(shop, "tsconfig.json"), "utf8"));
    expect(tsconfig.compilerOptions.paths["@service/*"]).toEqual(["../../lib/service/*"]);
  });

  it("has no copy of any lib/service file", () => {
    expect(files.length).toBeGreaterThan(10);
    const copies = files.filter((file) => serviceFiles.has(readFileSync(file, "utf8")));
    expect(copies).toEqual([]);
  });

  it("imports no other code of the repository (tests may use the SDK driver and browser options)", () => {
    const allowed = [shop, path.join(root, "e2e/support"), path.join(root, "scripts")];
    const outside = files.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/from "([^"]+)"/g)]
        .map((match) => match[1] as string)
        .filter((spec) => {
          if (spec.startsWith("@/")) return true;
          if (!spec.startsWith(".")) return false;
          const target = path.resolve(path.dirname(file), spec);
          return !allowed.some((dir) => target.startsWith(`${dir}/`));
        })
        .map((spec) => `${path.relative(shop, file)}: ${spec}`),
    );
    expect(outside).toEqual([]);
  });
});
