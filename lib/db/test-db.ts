import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import { afterAll, beforeAll } from "vitest";
import { PrismaClient } from "./generated/client";

/**
 * Test-only: a new SQLite file in a fresh temporary folder, with the project's migrations
 * applied in order. The caller removes `dir` when done.
 */
export function migratedTestDatabase(prefix: string): { dir: string; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const file = path.join(dir, "test.db");
  const raw = new Database(file);
  const migrations = path.resolve(import.meta.dirname, "../../prisma/migrations");
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
export async function createTestDb(): Promise<{ db: PrismaClient; cleanup: () => Promise<void> }> {
  const { dir, file } = migratedTestDatabase("shop-unit-");
  Object.assign(process.env, {
    DATABASE_URL: `file:${file}`,
    SESSION_SECRET: "unit-test-session-secret-32-characters-long",
    ADMIN_EMAIL: "admin@example.com",
    ADMIN_PASSWORD: "admin-password",
    SHOP_BASE_URL: "http://shop.test",
  });
  const db = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: `file:${file}` }) });
  (globalThis as unknown as { shopPrisma?: PrismaClient }).shopPrisma = db;
  return {
    db,
    cleanup: async () => {
      await db.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    },
  };
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
