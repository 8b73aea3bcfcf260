import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { root } from "./env.mjs";

/** Runs one command to completion with inherited output; exits the script on failure. `wrap`
 *  (./cpu-group.mjs): run it in a cgroup of its own. */
export function run(command, args, { wrap, ...options } = {}) {
  const [file, fileArgs] = wrap ? wrap(command, args) : [command, args];
  const result = spawnSync(file, fileArgs, { cwd: root, stdio: "inherit", ...options });
  if (result.status !== 0) {
    console.error(
      `\n✗ ${[command, ...args].join(" ")} failed (exit ${result.status ?? result.signal})`,
    );
    process.exit(result.status ?? 1);
  }
}

/** Migrates and seeds the database named by DATABASE_URL (or the one given); resolves with each
 *  part's wall time. `wrap(part)`: each part ("migrate", "seed") in a cgroup of its own. */
export function prepareDatabase(databaseUrl, { fresh = false, wrap = () => undefined } = {}) {
  const env = { ...process.env, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  if (fresh && env.DATABASE_URL.startsWith("file:")) {
    const file = env.DATABASE_URL.replace(/^file:/, "");
    for (const suffix of ["", "-journal", "-wal", "-shm"]) {
      try {
        rmSync(path.resolve(root, file + suffix));
      } catch {}
    }
  }
  const began = Date.now();
  run(process.execPath, ["scripts/prisma.mjs", "migrate", "deploy"], {
    env,
    wrap: wrap("migrate"),
  });
  const migrated = Date.now();
  run(
    process.execPath,
    ["node_modules/tsx/dist/cli.mjs", "--conditions=react-server", "prisma/seed.ts"],
    { env, wrap: wrap("seed") },
  );
  return { migrateMs: migrated - began, seedMs: Date.now() - migrated };
}

/** Copies a child's output to ours (`to`, stdout by default) line by line, each line after `prefix`. */
export function printPrefixed(prefix, child, to = process.stdout) {
  for (const stream of [child.stdout, child.stderr]) {
    let buffer = "";
    stream?.on("data", (chunk) => {
      buffer += chunk;
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) to.write(`${prefix}${line}\n`);
    });
  }
}
