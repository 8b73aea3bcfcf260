// Runs the Prisma CLI fully offline. Prisma 6.19 uses its WebAssembly schema engine with the
// driver adapter, but still tries to download native engines unless told they exist
// (see shared notes: toolchain.md, "Prisma and SQLite, offline").
import { spawnSync } from "node:child_process";
import { copyFileSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const anyExistingFile = fileURLToPath(import.meta.url);
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: anyExistingFile,
  PRISMA_QUERY_ENGINE_LIBRARY: anyExistingFile,
  PRISMA_ENGINES_CHECKSUM_IGNORE_MISSING: "1",
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1",
  DATABASE_URL: process.env.DATABASE_URL ?? "file:./dev.db",
};
const require = createRequire(import.meta.url);
const cli = require.resolve("prisma/build/index.js");

// Each provider's schema is a folder (Prisma's multi-file schema): the shop's schema.prisma and
// the integration's models from the INSTALLED @service-integration/prisma-adapter, copied in
// before every CLI call (the copy is git-ignored), so they are defined once, in the package.
const root = path.resolve(import.meta.dirname, "..");
const SCHEMA_FOLDERS = {
  sqlite: path.join(root, "prisma/schema/sqlite"),
  postgresql: path.join(root, "prisma/schema/postgresql"),
};
const serviceModels = path.join(
  path.dirname(require.resolve("@service-integration/prisma-adapter/package.json")),
  "prisma/service.prisma",
);
// Only when it changed: npm test's steps run side by side, and a copy rewrites the file another
// step's Prisma CLI may be reading at that moment.
const models = readFileSync(serviceModels, "utf8");
for (const folder of Object.values(SCHEMA_FOLDERS)) {
  const copy = path.join(folder, "service.prisma");
  let current = null;
  try {
    current = readFileSync(copy, "utf8");
  } catch {}
  if (current !== models) copyFileSync(serviceModels, copy);
}

const args = process.argv.slice(2);
// Other commands follow DATABASE_URL (prisma.config.ts); `generate` builds both clients, since
// the one build serves SQLite and PostgreSQL alike (lib/db/client.ts).
const runs =
  args[0] === "generate" && !args.includes("--schema")
    ? [
        [...args, "--schema", SCHEMA_FOLDERS.sqlite],
        [...args, "--schema", SCHEMA_FOLDERS.postgresql],
      ]
    : [args];
for (const argv of runs) {
  const result = spawnSync(process.execPath, [cli, ...argv], { stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
// The Prisma adapter's test shop clients (packages/prisma-adapter/src/test-support/generated),
// by its own script (it calls this one back with --schema for each).
if (args[0] === "generate" && !args.includes("--schema")) {
  const script = fileURLToPath(
    new URL("../packages/prisma-adapter/scripts/test-clients.mjs", import.meta.url),
  );
  const result = spawnSync(process.execPath, [script], { stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
