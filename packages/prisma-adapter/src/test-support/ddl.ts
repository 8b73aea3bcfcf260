// What a test database is made of, besides the shipped migration (host.ts): the test shop's own
// tables, diffed from its schema file by the Prisma CLI (never a hand-written copy).
import path from "node:path";
import { sqlFromEmpty } from "../../scripts/prisma-tools.mjs";

/** CREATE statements of the test shop's own models (PostgreSQL: through `adminUrl`'s server). */
export function testShopDdl(provider: "sqlite" | "postgresql", adminUrl?: string): string {
  return sqlFromEmpty(
    path.join(import.meta.dirname, "schema", provider, "schema.prisma"),
    adminUrl,
  );
}
