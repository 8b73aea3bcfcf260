import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type { PrismaConfig } from "prisma";

// Offline Prisma: the JS engine with the better-sqlite3 driver adapter (shared notes, toolchain.md).
const url = process.env.DATABASE_URL ?? "file:./dev.db";

export default {
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  adapter: async () => new PrismaBetterSQLite3({ url }),
} satisfies PrismaConfig;
