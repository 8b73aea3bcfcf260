#!/usr/bin/env node
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { type Database, InitError, init, type Orm } from "./init.js";

// The kit's command line (`npx service-integration-kit init`, the package's bin). Plain Node:
// no dependency beyond the kit's own.

const USAGE = `Usage: service-integration-kit init [--orm drizzle|prisma] [--database pg|sqlite] [--dry-run] [--force]

Adds to the Next.js app in the current folder the service's routes (app/api/service/*), its job
routes, instrumentation.ts, lib/service/wiring.ts, lib/service/callbacks.ts (yours to fill in)
and the missing .env.example entries. An existing file is skipped (asked about in a terminal)
unless --force; --dry-run lists what it would write.`;

const parse = (args: string[]) =>
  parseArgs({
    args,
    allowPositionals: true,
    options: {
      orm: { type: "string" },
      database: { type: "string" },
      "dry-run": { type: "boolean" },
      force: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });

export async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals[0] !== "init" || positionals.length > 1) {
    console.error(USAGE);
    return 1;
  }
  const orm = values.orm as Orm | undefined;
  const database = values.database as Database | undefined;
  if (orm !== undefined && orm !== "drizzle" && orm !== "prisma") {
    console.error(`--orm is drizzle or prisma, not ${orm}`);
    return 1;
  }
  if (database !== undefined && database !== "pg" && database !== "sqlite") {
    console.error(`--database is pg or sqlite, not ${database}`);
    return 1;
  }
  const interactive = process.stdin.isTTY && process.stdout.isTTY;
  const prompt = interactive
    ? createInterface({ input: process.stdin, output: process.stdout })
    : null;
  try {
    await init({
      cwd: process.cwd(),
      orm,
      database,
      dryRun: values["dry-run"],
      force: values.force,
      ask: prompt
        ? async (question) => /^y(es)?$/i.test((await prompt.question(question)).trim())
        : undefined,
    });
    return 0;
  } catch (error) {
    if (!(error instanceof InitError)) throw error;
    console.error(`service-integration-kit init: ${error.message}`);
    return 1;
  } finally {
    prompt?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
