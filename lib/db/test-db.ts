import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { createPostgresClient } from "./client";
import { PrismaClient } from "./generated/client";
import { trackSqliteConnection, withWriteAheadLog } from "./sqlite-wal";

const prismaFolder = path.resolve(import.meta.dirname, "../../prisma");

/** The migration scripts of one provider's folder, oldest first. */
export function migrationScripts(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => readFileSync(path.join(folder, name, "migration.sql"), "utf8"));
}

/**
 * Test-only: a new SQLite file in a fresh temporary folder, with the project's migrations
 * applied in order. The caller removes `dir` when done.
 */
export function migratedTestDatabase(prefix: string): { dir: string; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const file = path.join(dir, "test.db");
  const raw = new Database(file);
  for (const script of migrationScripts(path.join(prismaFolder, "migrations"))) raw.exec(script);
  raw.close();
  return { dir, file };
}

/**
 * The cluster the tests run on when TEST_DATABASE=postgresql (vitest's global setup,
 * scripts/vitest-postgres.ts, starts it and migrates the template database); undefined on
 * SQLite, the default.
 */
export function testPostgresAdminUrl(): string | undefined {
  return process.env.TEST_DATABASE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;
}

export const POSTGRES_TEST_TEMPLATE = "shop_test_template";

let databases = 0;

/**
 * Test-only: a fresh, migrated database of the provider under test, and the URL and Prisma
 * client (the app's own, lib/db/client.ts) to reach it. On PostgreSQL a copy of the migrated
 * template database, dropped by `cleanup`; on SQLite a temporary file.
 */
export async function openTestDatabase(
  prefix: string,
): Promise<{ url: string; db: PrismaClient; cleanup: () => Promise<void> }> {
  const admin = testPostgresAdminUrl();
  if (admin) {
    databases += 1;
    const name = `shop_test_${process.pid}_${databases}_${Date.now().toString(36)}`;
    const run = async (sql: string) => {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await run(`CREATE DATABASE "${name}" TEMPLATE "${POSTGRES_TEST_TEMPLATE}"`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    const db = createPostgresClient(url.toString());
    return {
      url: url.toString(),
      db,
      cleanup: async () => {
        await db.$disconnect();
        await run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      },
    };
  }
  const { dir, file } = migratedTestDatabase(prefix);
  const adapter = withWriteAheadLog(new PrismaBetterSQLite3({ url: `file:${file}` }));
  const db = trackSqliteConnection(new PrismaClient({ adapter }), adapter);
  return {
    url: `file:${file}`,
    db,
    cleanup: async () => {
      await db.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Test-only: a fresh test database installed as the app's `getDb()` client, so shop modules
 * run against a real database in unit tests. Call in beforeAll.
 */
export async function createTestDb(): Promise<{ db: PrismaClient; cleanup: () => Promise<void> }> {
  const { url, db, cleanup } = await openTestDatabase("shop-unit-");
  Object.assign(process.env, {
    DATABASE_URL: url,
    SESSION_SECRET: "unit-test-session-secret-32-characters-long",
    ADMIN_EMAIL: "admin@example.com",
    ADMIN_PASSWORD: "admin-password",
    SHOP_BASE_URL: "http://shop.test",
  });
  (globalThis as unknown as { shopPrisma?: PrismaClient }).shopPrisma = db;
  return { db, cleanup };
}
/** Two products priced in EUR and GBP. */
export async function seedTwoProducts(db: PrismaClient) {
  const category = await db.category.create({ data: { slug: "phones", name: "Phones" } });
  const make = (slug: string, eur: [number, number], gbp: [number, number]) =>
    db.product.create({
      data: {
        slug,
        name: slug.toUpperCase(),
        description: `About ${slug}`,
        image: `/products/${slug}.svg`,
        categoryId: category.id,
        prices: {
          create: [
            { currency: "EUR", price: eur[0], tax: eur[1] },
            { currency: "GBP", price: gbp[0], tax: gbp[1] },
          ],
        },
      },
    });
  return {
    phone: await make("phone", [66033, 13867], [58250, 11650]),
    buds: await make("buds", [14793, 3107], [13250, 2650]),
  };
}

/**
 * Test-only: registers beforeAll/afterAll that create the test database and seed the two
 * products; read `db` and `products` inside tests (they are set once beforeAll has run).
 */
export function setUpTestDb() {
  const shop = {} as { db: PrismaClient; products: Awaited<ReturnType<typeof seedTwoProducts>> };
  let cleanup: () => Promise<void> = async () => {};
  beforeAll(async () => {
    ({ db: shop.db, cleanup } = await createTestDb());
    shop.products = await seedTwoProducts(shop.db);
  });
  afterAll(() => cleanup());
  return shop;
}
