import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { replaceProcessSingleton } from "@service-integration/kit/server";
import { EMPTY_POSTGRES_TABLES, emptySqliteDatabase } from "@service-integration/kit/testing";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { createDbClient, DB_SINGLETON } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";

/** The environment every test shop runs with (getConfig reads it once). */
export const TEST_ENV = {
  SESSION_SECRET: "test-session-secret-at-least-32-characters!!",
  ADMIN_EMAIL: "admin@example.com",
  ADMIN_PASSWORD: "admin-password",
  SHOP_BASE_URL: "http://shop.test",
  SERVICE_CLIENT_SECRET: "client-secret",
  SERVICE_PASSWORD: "password",
  SERVICE_TOKEN_KEY: "test-token-key-at-least-32-characters",
  // Never reached: the tests seed a ServiceToken, so no login is attempted.
  SERVICE_API_BASE_URL: "http://127.0.0.1:9",
};

const prismaFolder = path.resolve(import.meta.dirname, "../prisma");

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
function migratedTestDatabase(prefix: string): { dir: string; file: string } {
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

async function onPostgres(admin: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Test-only: a fresh, migrated database of the provider under test, with the URL and the app's
 * own Prisma client (lib/db/client.ts) to reach it. On PostgreSQL a copy of the migrated
 * template database, dropped by `cleanup`; on SQLite a temporary file.
 */
export async function openTestDatabase(
  prefix: string,
): Promise<{ url: string; db: PrismaClient; cleanup: () => Promise<void> }> {
  const admin = testPostgresAdminUrl();
  if (admin) {
    databases += 1;
    const name = `shop_test_${process.pid}_${databases}_${Date.now().toString(36)}`;
    await onPostgres(admin, `CREATE DATABASE "${name}" TEMPLATE "${POSTGRES_TEST_TEMPLATE}"`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    const db = createDbClient(url.toString());
    return {
      url: url.toString(),
      db,
      cleanup: async () => {
        await db.$disconnect();
        await onPostgres(admin, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      },
    };
  }
  const { dir, file } = migratedTestDatabase(prefix);
  // The app's own client, WAL and all.
  const db = createDbClient(`file:${file}`);
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
 * Test-only: a fresh, migrated database of the provider under test made once for a whole suite
 * (a test file), with `empty` to put it back as the migrations left it between its checks
 * (PostgreSQL: every table's rows deleted and its sequences restarted in one statement; SQLite: every
 * table's rows deleted in one transaction) and `dispose` to remove it. Each check opens its own
 * client on `url` (createDbClient) and disconnects it before `empty`. For the kit's
 * oneDatabasePerSuite.
 */
export async function openSuiteDatabase(
  prefix: string,
): Promise<{ url: string; empty: () => Promise<void>; dispose: () => Promise<void> }> {
  const admin = testPostgresAdminUrl();
  if (admin) {
    databases += 1;
    const name = `shop_test_${process.pid}_${databases}_${Date.now().toString(36)}`;
    await onPostgres(admin, `CREATE DATABASE "${name}" TEMPLATE "${POSTGRES_TEST_TEMPLATE}"`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      empty: () => onPostgres(url.toString(), EMPTY_POSTGRES_TABLES),
      dispose: () => onPostgres(admin, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    };
  }
  const { dir, file } = migratedTestDatabase(prefix);
  return {
    url: `file:${file}`,
    empty: async () => {
      const raw = new Database(file);
      try {
        emptySqliteDatabase(raw);
      } finally {
        raw.close();
      }
    },
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Test-only: what a check left in the database at `url` (openSuiteDatabase's): every table's
 * row count, and each sequence's use (PostgreSQL: 1 once it gave a value and was not restarted;
 * SQLite's AUTOINCREMENT counters are the rows of its table sqlite_sequence).
 */
export async function leftInDatabase(url: string): Promise<Record<string, number>> {
  if (!url.startsWith("file:")) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const tables = await client.query<{ name: string }>(
        "SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname = current_schema()",
      );
      // One round trip for every count, the sequences' use with them.
      const counts = tables.rows.map(
        ({ name }) =>
          `SELECT '${name.replaceAll("'", "''")}' AS name, count(*)::int AS n FROM ${name}`,
      );
      counts.push(
        "SELECT 'sequence ' || sequencename, (last_value IS NOT NULL)::int FROM pg_sequences WHERE schemaname = current_schema()",
      );
      const left = await client.query<{ name: string; n: number }>(counts.join(" UNION ALL "));
      return Object.fromEntries(left.rows.map(({ name, n }) => [name, n]));
    } finally {
      await client.end();
    }
  }
  const raw = new Database(url.slice("file:".length), { readonly: true });
  try {
    const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        (
          raw.prepare(`SELECT count(*) AS n FROM "${name.replaceAll('"', '""')}"`).get() as {
            n: number;
          }
        ).n,
      ]),
    );
  } finally {
    raw.close();
  }
}

/**
 * Test-only: a fresh test database (SQLite, or PostgreSQL with TEST_DATABASE=postgresql)
 * installed as the app's `getDb()` client, so shop modules run against a real database in unit
 * tests. Call in beforeAll.
 */
export async function createTestDb(
  env: Record<string, string> = {},
): Promise<{ db: PrismaClient; cleanup: () => Promise<void> }> {
  const { url, db, cleanup } = await openTestDatabase("shop-unit-");
  Object.assign(process.env, TEST_ENV, env, { DATABASE_URL: url });
  replaceProcessSingleton(DB_SINGLETON, db);
  return { db, cleanup };
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
 * `env` adds settings for this file's shop (getConfig), put back as they were afterwards.
 */
export function setUpTestDb(env: Record<string, string> = {}) {
  const shop = {} as { db: PrismaClient; products: Awaited<ReturnType<typeof seedTwoProducts>> };
  let cleanup: () => Promise<void> = async () => {};
  const before = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  beforeAll(async () => {
    ({ db: shop.db, cleanup } = await createTestDb(env));
    shop.products = await seedTwoProducts(shop.db);
  });
  afterAll(async () => {
    await cleanup();
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  return shop;
}
