// The shipped migrations are what the shipped models make: each provider's migration.sql of
// each folder equals the Prisma CLI's diff from the models as of the migration before it (the
// first: an empty database; scripts/models-at/) to its own, the last one's being
// prisma/service.prisma (scripts/migrations.mjs writes them; re-run it after a change to the
// models, with a new name in MIGRATIONS). PostgreSQL's diff needs a server: checked in the
// PostgreSQL step.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MIGRATIONS, migrationSql } from "../scripts/prisma-tools.mjs";

const shipped = (provider: string, name: string) =>
  readFileSync(
    path.join(import.meta.dirname, "../prisma", provider, "migrations", name, "migration.sql"),
    "utf8",
  );
const admin =
  process.env.TEST_DATABASE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;
const provider = admin ? ("postgresql" as const) : ("sqlite" as const);
// Diffed when the file is collected (the Prisma CLI takes seconds).
const current = MIGRATIONS.map((name) => ({ name, sql: migrationSql(provider, name, admin) }));

describe("the shipped migrations", () => {
  it(`of ${provider} are each the diff of the models they ship, the last up to prisma/service.prisma`, () => {
    for (const { name, sql } of current) expect(shipped(provider, name), name).toBe(sql);
    const [initial, ...later] = current.map((m) => m.sql);
    expect(initial).toMatch(/CREATE TABLE "ServiceNotification"/);
    expect(initial).toMatch(/CREATE UNIQUE INDEX "ServiceNotification_dedupeKey_key"/);
    expect(initial).toMatch(/CREATE UNIQUE INDEX "TradeInRegistration_orderId_key"/);
    expect(later.join("\n")).toMatch(/"askedAmount" INTEGER/);
  });
});
