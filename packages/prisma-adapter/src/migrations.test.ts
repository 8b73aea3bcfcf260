// The shipped initial migrations are what the shipped models make: each provider's
// migration.sql equals the Prisma CLI's diff from an empty database to prisma/service.prisma
// (scripts/migrations.mjs writes them; re-run it after a change to the models). PostgreSQL's
// diff needs a server: checked in the PostgreSQL step.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { INITIAL, initialMigrationSql } from "../scripts/prisma-tools.mjs";

const shipped = (provider: string) =>
  readFileSync(
    path.join(import.meta.dirname, "../prisma", provider, "migrations", INITIAL, "migration.sql"),
    "utf8",
  );
const admin =
  process.env.TEST_DATABASE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;
// Diffed when the file is collected (the Prisma CLI takes seconds).
const current = admin
  ? { provider: "postgresql" as const, sql: initialMigrationSql("postgresql", admin) }
  : { provider: "sqlite" as const, sql: initialMigrationSql("sqlite") };

describe("the shipped initial migration", () => {
  it(`of ${current.provider} creates exactly the models of prisma/service.prisma`, () => {
    expect(shipped(current.provider)).toBe(current.sql);
    expect(current.sql).toMatch(/CREATE TABLE "ServiceNotification"/);
    expect(current.sql).toMatch(/CREATE UNIQUE INDEX "ServiceNotification_dedupeKey_key"/);
    expect(current.sql).toMatch(/CREATE UNIQUE INDEX "TradeInRegistration_orderId_key"/);
  });
});
