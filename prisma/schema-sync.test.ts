import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Prisma 6 takes one provider per schema, so the shop keeps two schema folders: SQLite
// (embedded default) and PostgreSQL (several instances), each the shop's schema.prisma plus the
// integration's models of @service-integration/prisma-adapter (scripts/prisma.mjs copies them
// in). They must describe the same data, and each migration history must reach its schema;
// this fails when either drifts (npm run db:migration:new writes both).
const here = import.meta.dirname;
const SQLITE = {
  schema: path.join(here, "schema/sqlite/schema.prisma"),
  migrations: path.join(here, "migrations"),
};
const POSTGRES = {
  schema: path.join(here, "schema/postgresql/schema.prisma"),
  migrations: path.join(here, "postgresql/migrations"),
};
/** The installed adapter's models: the one definition of the integration's own records. */
const SERVICE_MODELS = path.join(
  path.dirname(
    createRequire(import.meta.url).resolve("@service-integration/prisma-adapter/package.json"),
  ),
  "prisma/service.prisma",
);

/** The models, enums and their doc comments; without the generator and datasource blocks and
 *  `//` comments, whitespace normalised. */
function modelsOf(schemaText: string): string {
  return schemaText
    .replace(/^(generator|datasource)\s+\w+\s*\{[^}]*\}/gm, "")
    .replace(/^\s*\/\/(?!\/).*$/gm, "")
    .replace(/(?<!\/)\/\/(?!\/).*$/gm, "")
    .split("\n")
    .map((line) => line.trim().replace(/\s+/g, " "))
    .filter(Boolean)
    .join("\n");
}

const read = (file: string) => readFileSync(file, "utf8");
const migrationNames = (folder: string) =>
  readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

describe("the SQLite and PostgreSQL schemas", () => {
  it("declare the same models", () => {
    expect(modelsOf(read(POSTGRES.schema))).toBe(modelsOf(read(SQLITE.schema)));
  });

  it("have the same migration history, by name", () => {
    expect(migrationNames(POSTGRES.migrations)).toEqual(migrationNames(SQLITE.migrations));
  });

  it("are each fully migrated: the snapshot at the last migration is the schema", () => {
    for (const { schema, migrations } of [SQLITE, POSTGRES]) {
      expect(modelsOf(read(path.join(migrations, "schema.snapshot.prisma")))).toBe(
        modelsOf(`${read(schema)}\n${read(SERVICE_MODELS)}`),
      );
    }
  });

  it("define none of the integration's models themselves: those come from the adapter, once", () => {
    const serviceModels = [...read(SERVICE_MODELS).matchAll(/^model (\w+) \{/gm)].map((m) => m[1]);
    expect(serviceModels).toContain("ServiceNotification");
    expect(serviceModels).toContain("OrderStatusChange");
    for (const { schema } of [SQLITE, POSTGRES]) {
      const own = [...read(schema).matchAll(/^model (\w+) \{/gm)].map((m) => m[1]);
      expect(own.filter((name) => serviceModels.includes(name))).toEqual([]);
    }
  });

  it("tell a model change apart (the check is not vacuous)", () => {
    const sqlite = read(SQLITE.schema);
    const changed = sqlite.replace(/(model Cart \{[^}]*sessionId\s+)String/, "$1Int");
    expect(changed).not.toBe(sqlite);
    expect(modelsOf(changed)).not.toBe(modelsOf(sqlite));
    expect(modelsOf(sqlite.replace(/^\/\/.*$/m, "// another comment"))).toBe(modelsOf(sqlite));
  });
});
