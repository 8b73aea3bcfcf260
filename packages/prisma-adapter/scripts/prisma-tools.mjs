// The package's schema chores, on the repository's offline Prisma CLI (scripts/prisma.mjs at
// the root): the initial migration of each provider from prisma/service.prisma, and the test
// shop's clients (src/test-support/schema/<provider>, the service models copied in).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const here = path.resolve(import.meta.dirname, "..");
const root = path.resolve(here, "../..");
export const SERVICE_MODELS = path.join(here, "prisma/service.prisma");
export const PROVIDERS = ["sqlite", "postgresql"];
/** The initial migration's folder name in each provider's migrations. */
export const INITIAL = "20261126000000_service_init";
/** Every shipped migration's folder name, oldest first. Each goes from the models as of the one
 *  before (kept in scripts/models-at/<name>.prisma) to its own; the last one's are
 *  prisma/service.prisma. A change to the models is a new folder here (README, Semver policy). */
export const MIGRATIONS = [INITIAL, "20261128000000_checkout_asked_amount"];

function prisma(args, env = {}) {
  // The root's prisma.config.ts reads DATABASE_URL: the caller's (a shell's, or a test's that set
  // it for its own database) must not choose the database a chore runs against; `env` does.
  const { DATABASE_URL: _callers, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [path.join(root, "scripts/prisma.mjs"), ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...inherited, ...env },
  });
  if (result.status !== 0) {
    throw new Error(`prisma ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
  }
  return result.stdout;
}

/** `migrate diff --from-empty` to the schema folder `folder` (PostgreSQL: through the server of
 *  `databaseUrl`, which the CLI needs even for a diff between schemas). */
export function sqlFromEmpty(folder, databaseUrl) {
  return prisma(
    ["migrate", "diff", "--from-empty", "--to-schema-datamodel", folder, "--script"],
    databaseUrl ? { DATABASE_URL: databaseUrl } : {},
  );
}

/** The models file as of the shipped migration `name` (MIGRATIONS). */
export function modelsAt(name) {
  return name === MIGRATIONS.at(-1)
    ? SERVICE_MODELS
    : path.join(here, "scripts/models-at", `${name}.prisma`);
}

/** A schema folder of `provider` holding the models file `models` (deleted by `done`). */
function schemaFolderOf(provider, models) {
  const folder = mkdtempSync(path.join(tmpdir(), "prisma-adapter-"));
  writeFileSync(
    path.join(folder, "schema.prisma"),
    `datasource db {\n  provider = "${provider}"\n  url      = env("DATABASE_URL")\n}\n`,
  );
  copyFileSync(models, path.join(folder, "service.prisma"));
  return { folder, done: () => rmSync(folder, { recursive: true, force: true }) };
}

/** The SQL of the shipped migration `name` of `provider`: from the models as of the migration
 *  before it (the first: an empty database) to its own. */
export function migrationSql(provider, name, databaseUrl) {
  const index = MIGRATIONS.indexOf(name);
  if (index < 0) throw new Error(`no migration ${name}`);
  const to = schemaFolderOf(provider, modelsAt(name));
  const from = index > 0 ? schemaFolderOf(provider, modelsAt(MIGRATIONS[index - 1])) : null;
  try {
    const source = from ? ["--from-schema-datamodel", from.folder] : ["--from-empty"];
    return prisma(
      ["migrate", "diff", ...source, "--to-schema-datamodel", to.folder, "--script"],
      databaseUrl ? { DATABASE_URL: databaseUrl } : {},
    );
  } finally {
    to.done();
    from?.done();
  }
}

/** The SQL that creates the service models alone in a fresh database of `provider`, as the
 *  models were at the initial migration. */
export function initialMigrationSql(provider, databaseUrl) {
  return migrationSql(provider, INITIAL, databaseUrl);
}

/** The test shop's schema folder of `provider`, with the service models copied in. */
export function testSchemaFolder(provider) {
  const folder = path.join(here, "src/test-support/schema", provider);
  copyFileSync(SERVICE_MODELS, path.join(folder, "service.prisma"));
  return folder;
}

/** Generates the test shop's client of each provider (src/test-support/generated/). */
export function generateTestClients() {
  for (const provider of PROVIDERS) prisma(["generate", "--schema", testSchemaFolder(provider)]);
}
