import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { quickStartOf } from "./snippets/extract.mjs";

// The hosts of examples/ (the minimal shop, made of docs/integrating.md's quick start on the
// Prisma adapter, and the serverless shop on the Drizzle adapter) use the kit and their adapter
// as an integrator does: the packages by name and public subpaths (installed from their tarballs
// by scripts/lib/example-host.mjs), never a path alias into packages/*/src nor a copy of a
// source file that could drift.
const root = path.resolve(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if ([".next", "node_modules", "test-results"].includes(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) ? [full] : [];
  });
}

const kitFiles = new Map(
  ["packages/kit/src", "packages/drizzle-adapter/src", "packages/prisma-adapter/src"].flatMap(
    (dir) =>
      readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
        .filter((name) => /\.tsx?$/.test(name))
        .map((name) => [readFileSync(path.join(root, dir, name), "utf8"), name] as const),
  ),
);
const KIT_ENTRIES = [
  "@service-integration/kit",
  "@service-integration/kit/server",
  "@service-integration/kit/react",
  "@service-integration/kit/testing/config",
  "@service-integration/kit/testing",
  "@service-integration/drizzle-adapter",
  "@service-integration/drizzle-adapter/sqlite",
  "@service-integration/drizzle-adapter/pg",
  "@service-integration/drizzle-adapter/testing",
  "@service-integration/prisma-adapter",
  "@service-integration/prisma-adapter/sqlite",
  "@service-integration/prisma-adapter/pg",
];

const HOSTS = [
  { name: "minimal-shop", adapter: "prisma-adapter", quickStart: "docs/integrating.md" },
  { name: "serverless-shop", adapter: "drizzle-adapter" },
];

describe.each(HOSTS)("examples/$name's kit", ({ name, adapter, quickStart }) => {
  const shop = path.join(root, "examples", name);
  // Each source file, the host's own and, for the minimal shop, the quick start's TypeScript
  // files as its build writes them from the doc (at their paths in the host).
  const texts = new Map(sources(shop).map((file) => [file, readFileSync(file, "utf8")]));
  for (const block of quickStart ? quickStartOf(root, quickStart).files : [])
    if (/\.(ts|tsx|mjs)$/.test(block.path)) texts.set(path.join(shop, block.path), block.text);
  const files = [...texts.keys()];

  it("are packages pinned exactly in its own package.json, with no alias or build root into the repository", () => {
    const pkg = JSON.parse(readFileSync(path.join(shop, "package.json"), "utf8"));
    expect(Object.keys(pkg.dependencies)).toEqual(
      expect.arrayContaining(["@service-integration/kit", `@service-integration/${adapter}`]),
    );
    const ranges = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }).filter(
      ([, version]) => !/^\d+\.\d+\.\d+$/.test(String(version)),
    );
    expect(ranges).toEqual([]);
    const tsconfig = readFileSync(path.join(shop, "tsconfig.json"), "utf8");
    expect(tsconfig).not.toMatch(/\.\.\/|packages|lib\/service-adapter/);
    expect(readFileSync(path.join(shop, "next.config.ts"), "utf8")).not.toMatch(/\.\.\//);
  });

  it("imports the kit only by its public entries", () => {
    const kitImports = files.flatMap((file) =>
      [...(texts.get(file) ?? "").matchAll(/from "(@service-integration\/[^"]+)"/g)].map(
        (match) => match[1] as string,
      ),
    );
    expect(kitImports.length).toBeGreaterThan(10);
    expect(kitImports.filter((spec) => !KIT_ENTRIES.includes(spec))).toEqual([]);
  });

  it("has no copy of any kit source file", () => {
    expect(files.length).toBeGreaterThan(10);
    const copies = files.filter((file) => kitFiles.has(texts.get(file) ?? ""));
    expect(copies).toEqual([]);
  });

  it("imports no other code of the repository (tests may use the SDK driver and browser options)", () => {
    const allowed = [shop, path.join(root, "e2e/support"), path.join(root, "scripts")];
    const outside = files.flatMap((file) =>
      [...(texts.get(file) ?? "").matchAll(/from "([^"]+)"/g)]
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

// The serverless profile (docs/integrating.md): the serverless shop starts no timer of its own
// and none of the kit's; its jobs run only when a scheduler calls their routes.
it("the serverless shop's shipped code starts no timer", () => {
  const shop = path.join(root, "examples/serverless-shop");
  const timers = sources(shop)
    .filter((file) => !/(^|\/)(e2e|test-support)\/|\.test\.tsx?$/.test(path.relative(shop, file)))
    .filter((file) => /startJobTimer|setInterval|setTimeout/.test(readFileSync(file, "utf8")))
    .map((file) => path.relative(shop, file));
  expect(timers).toEqual([]);
});
