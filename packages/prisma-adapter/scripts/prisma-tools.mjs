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

function prisma(args, env = {}) {
  const result = spawnSync(process.execPath, [path.join(root, "scripts/prisma.mjs"), ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, ...env },
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

/** The SQL that creates the service models alone in a fresh database of `provider`. */
export function initialMigrationSql(provider, databaseUrl) {
  const folder = mkdtempSync(path.join(tmpdir(), "prisma-adapter-"));
  try {
    writeFileSync(
      path.join(folder, "schema.prisma"),
      `datasource db {\n  provider = "${provider}"\n  url      = env("DATABASE_URL")\n}\n`,
    );
    copyFileSync(SERVICE_MODELS, path.join(folder, "service.prisma"));
    return sqlFromEmpty(folder, databaseUrl);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
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
