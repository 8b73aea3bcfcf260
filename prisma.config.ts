import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type { PrismaConfig } from "prisma";
import { cliAdapter } from "./prisma/postgresql/cli-adapter";

// Offline Prisma: the JS engine with a driver adapter (shared notes, toolchain.md). DATABASE_URL
// picks the provider: SQLite (`file:…`, the embedded default) or PostgreSQL (`postgresql://…`,
// several instances), each with its own schema folder and migrations (Prisma 6 allows one
// provider per schema).
const url = process.env.DATABASE_URL ?? "file:./dev.db";
const postgres = /^postgres(ql)?:\/\//.test(url);

export default {
  experimental: { adapter: true },
  engine: "js",
  // Schema folders (scripts/prisma.mjs copies the Prisma adapter's models into each).
  schema: postgres ? "prisma/schema/postgresql" : "prisma/schema/sqlite",
  migrations: { path: postgres ? "prisma/postgresql/migrations" : "prisma/migrations" },
  adapter: async () => (postgres ? cliAdapter(url) : new PrismaBetterSQLite3({ url })),
} satisfies PrismaConfig;
