import "server-only";
import { randomBytes, scryptSync } from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "./schema";

// The minimal shop's database: one better-sqlite3 connection per process (the adapter's
// transaction queue is per connection), Drizzle over it, the migrations of drizzle/ applied at
// start. Every write outside the adapter goes through sqliteTransaction (lib/shop.ts).

export type ShopDb = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** Three products (EUR; unit price before tax and unit tax, cents). */
const PRODUCTS = [
  { id: "laptop", name: "Laptop 14", description: "A light laptop.", price: 84000, tax: 15960 },
  {
    id: "phone",
    name: "Phone X",
    description: "A phone with a big screen.",
    price: 42000,
    tax: 7980,
  },
  { id: "cable", name: "USB-C cable", description: "Two metres.", price: 1000, tax: 190 },
];

/** The one seeded customer (password from MINI_CUSTOMER_PASSWORD). */
export const SEEDED_CUSTOMER = { id: "c_1", email: "ada@example.com" } as const;

export function hashPassword(password: string, salt = randomBytes(16).toString("hex")): string {
  return `${salt}:${scryptSync(password, salt, 32).toString("hex")}`;
}

/** Opens `file` (":memory:": a new database), migrated and seeded. */
export function openDatabase(
  file: string,
  migrationsFolder = path.join(process.cwd(), "drizzle"),
): ShopDb {
  const client = new Database(file);
  client.pragma("journal_mode = WAL");
  // Another process's writer makes BEGIN IMMEDIATE wait instead of failing (SQLITE_BUSY).
  client.pragma("busy_timeout = 5000");
  const db = drizzle(client, { schema });
  migrate(db, { migrationsFolder });
  db.insert(schema.products).values(PRODUCTS).onConflictDoNothing().run();
  const password = process.env.MINI_CUSTOMER_PASSWORD;
  if (password) {
    const { id, email } = SEEDED_CUSTOMER;
    const ada = { id, email, givenName: "Ada", familyName: "Lovelace" };
    db.insert(schema.customers)
      .values({ ...ada, passwordHash: hashPassword(password) })
      .onConflictDoNothing()
      .run();
  }
  return db;
}

const state = globalThis as { miniDb?: ShopDb };

export function db(): ShopDb {
  state.miniDb ??= openDatabase(process.env.MINI_DATABASE_FILE ?? "minimal-shop.db");
  return state.miniDb;
}
