import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll } from "vitest";
import { createDbClient, DB_SINGLETON } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { replaceProcessSingleton } from "@/lib/service/process-singleton";

/** The environment every test shop runs with (getConfig reads it once). */
export const TEST_ENV = {
  SESSION_SECRET: "test-session-secret-at-least-32-characters!!",
  ADMIN_EMAIL: "admin@example.com",
  ADMIN_PASSWORD: "admin-password",
  SHOP_BASE_URL: "http://shop.test",
  SERVICE_CLIENT_SECRET: "client-secret",
  SERVICE_PASSWORD: "password",
  // Never reached: the tests seed a ServiceToken, so no login is attempted.
  SERVICE_API_BASE_URL: "http://127.0.0.1:9",
};

/**
 * Test-only: a new SQLite file in a fresh temporary folder, with the project's migrations
 * applied in order. The caller removes `dir` when done.
 */
function migratedTestDatabase(prefix: string): { dir: string; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const file = path.join(dir, "test.db");
  const raw = new Database(file);
  const migrations = path.resolve(import.meta.dirname, "../prisma/migrations");
  const folders = readdirSync(migrations, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  for (const folder of folders) {
    raw.exec(readFileSync(path.join(migrations, folder, "migration.sql"), "utf8"));
  }
  raw.close();
  return { dir, file };
}

/**
 * Test-only: a temporary SQLite file migrated with the project's migrations and installed as
 * the app's `getDb()` client, so shop modules run against a real database in unit tests.
 * Call in beforeAll.
 */
export async function createTestDb(
  env: Record<string, string> = {},
): Promise<{ db: PrismaClient; cleanup: () => Promise<void> }> {
  const { dir, file } = migratedTestDatabase("shop-unit-");
  Object.assign(process.env, TEST_ENV, env, { DATABASE_URL: `file:${file}` });
  // The app's own client, WAL and all, installed as the process's database (getDb()).
  const db = createDbClient(`file:${file}`);
  replaceProcessSingleton(DB_SINGLETON, db);
  return {
    db,
    cleanup: async () => {
      await db.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Two products priced in EUR and GBP. */
async function seedTwoProducts(db: PrismaClient) {
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
