import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDbClient } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { openTestDatabase, testPostgresAdminUrl } from "@/test-support/test-db";
import { createPrismaIntegrationLog } from "./integration-log-store";

// On a real database (SQLite, or PostgreSQL with TEST_DATABASE=postgresql): what one instance
// logs for a shopper, the drawer reads through another.
let db: PrismaClient;
let otherInstance: PrismaClient;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  let url: string;
  ({ db, url, cleanup } = await openTestDatabase("integration-log-"));
  // SQLite serves one instance: one client per process.
  otherInstance = testPostgresAdminUrl() ? createDbClient(url) : db;
});

afterAll(async () => {
  if (otherInstance !== db) await otherInstance.$disconnect();
  await cleanup();
});

const entry = (label: string) => ({
  at: new Date().toISOString(),
  kind: "api" as const,
  label,
  ok: true,
});

describe("createPrismaIntegrationLog", () => {
  it("shows a shopper what every instance logged for them, and nobody else", async () => {
    const one = createPrismaIntegrationLog(() => db);
    const two = createPrismaIntegrationLog(() => otherInstance);
    await one.append("mine", { ...entry("GET /core/merchants/"), status: 200, durationMs: 12 });
    await two.append("mine", {
      ...entry("POST /register-purchase"),
      detail: "attempt 2",
      expected: "renewed and repeated",
    });
    await two.append("theirs", entry("GET /core/sessions/x/"));

    const seen = await one.read("mine", 0);
    expect(seen.map((e) => e.label)).toEqual(["GET /core/merchants/", "POST /register-purchase"]);
    expect(seen[0]).toMatchObject({ kind: "api", ok: true, status: 200, durationMs: 12 });
    expect(seen[1]).toMatchObject({ detail: "attempt 2", expected: "renewed and repeated" });
    expect(seen[1]).not.toHaveProperty("status");
    expect(await two.read("mine", seen[0]?.seq ?? 0)).toHaveLength(1);
  });

  it("gives the latest 100 entries of a key, oldest first", async () => {
    const log = createPrismaIntegrationLog(() => db);
    for (let i = 0; i < 105; i++) await log.append("busy", entry(`s${i}`));
    const seen = await log.read("busy", 0);
    expect(seen).toHaveLength(100);
    expect(seen[0]?.label).toBe("s5");
    expect(seen.at(-1)?.label).toBe("s104");
  });
});
