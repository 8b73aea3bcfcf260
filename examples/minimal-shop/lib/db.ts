import "server-only";
import { randomBytes, scryptSync } from "node:crypto";
import Database from "better-sqlite3";

// The minimal shop's own data layer: one better-sqlite3 connection per process, hand-written SQL,
// the schema created at start when missing. Columns are named like the fields the kit's
// ports read (shop-ports.ts), so a row is the port's object without mapping. Money: integer cents.

const SCHEMA = `
CREATE TABLE IF NOT EXISTS products (id TEXT PRIMARY KEY, name TEXT NOT NULL,
  description TEXT NOT NULL, price INTEGER NOT NULL, tax INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS customers (id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE,
  givenName TEXT NOT NULL, familyName TEXT NOT NULL, passwordHash TEXT NOT NULL);
-- openSessionId is the session's id while the cart is open, NULL once checked out: one open cart per session.
CREATE TABLE IF NOT EXISTS carts (id TEXT PRIMARY KEY, openSessionId TEXT UNIQUE, sessionId TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cart_lines (cartId TEXT NOT NULL, productId TEXT NOT NULL,
  quantity INTEGER NOT NULL, PRIMARY KEY (cartId, productId));
CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, number TEXT NOT NULL UNIQUE,
  cartId TEXT NOT NULL UNIQUE, sessionId TEXT NOT NULL, customerId TEXT, status TEXT NOT NULL,
  serviceOrderId TEXT UNIQUE, paymentMethod TEXT NOT NULL, currency TEXT NOT NULL,
  price INTEGER NOT NULL, tax INTEGER NOT NULL, shippingMethod TEXT NOT NULL,
  shippingPrice INTEGER NOT NULL, tradeInDiscount INTEGER NOT NULL, total INTEGER NOT NULL,
  tradeInStatus TEXT, tradeInMessage TEXT, email TEXT NOT NULL, details TEXT NOT NULL,
  valuationState TEXT, valuationItemId TEXT, valuationValue INTEGER, valuationCurrency TEXT,
  valuationNote TEXT, createdAt INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS order_items (orderId TEXT NOT NULL, productId TEXT NOT NULL,
  name TEXT NOT NULL, description TEXT NOT NULL, url TEXT NOT NULL, quantity INTEGER NOT NULL,
  price INTEGER NOT NULL, tax INTEGER NOT NULL, PRIMARY KEY (orderId, productId));
CREATE TABLE IF NOT EXISTS order_history (seq INTEGER PRIMARY KEY AUTOINCREMENT,
  orderId TEXT NOT NULL, fromStatus TEXT, toStatus TEXT NOT NULL, source TEXT NOT NULL,
  note TEXT NOT NULL, at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS checkouts (cartId TEXT PRIMARY KEY, sessionId TEXT NOT NULL,
  customerId TEXT, details TEXT NOT NULL, valuationState TEXT, valuationItemId TEXT,
  valuationValue INTEGER, valuationCurrency TEXT, valuationNote TEXT, keptAt INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS notifications (id TEXT PRIMARY KEY, dedupeKey TEXT NOT NULL UNIQUE,
  notificationId TEXT, event TEXT, serviceOrderId TEXT, cartId TEXT, status TEXT NOT NULL,
  amount INTEGER, currency TEXT, tradeInDiscount INTEGER, customerId TEXT, form TEXT NOT NULL,
  body TEXT NOT NULL, outcome TEXT NOT NULL, orderId TEXT, receivedAt INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (id TEXT PRIMARY KEY, accessToken TEXT NOT NULL,
  refreshToken TEXT NOT NULL, userId TEXT NOT NULL, merchantId TEXT NOT NULL, scope TEXT NOT NULL,
  accessExpiresAt INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expiresAt INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS registrations (id TEXT PRIMARY KEY, orderId TEXT NOT NULL UNIQUE,
  sessionHash TEXT NOT NULL, cart TEXT NOT NULL, orderAmount INTEGER NOT NULL, customerId TEXT,
  status TEXT NOT NULL, precheck INTEGER NOT NULL, attempts INTEGER NOT NULL,
  unreachable INTEGER NOT NULL, nextAttemptAt INTEGER, reason TEXT, lastError TEXT, response TEXT,
  updatedAt INTEGER NOT NULL);
`;

/** Three products (EUR; unit price before tax and unit tax, cents). */
const PRODUCTS = [
  ["laptop", "Laptop 14", "A light laptop.", 84000, 15960],
  ["phone", "Phone X", "A phone with a big screen.", 42000, 7980],
  ["cable", "USB-C cable", "Two metres.", 1000, 190],
] as const;

/** The one seeded customer (password from MINI_CUSTOMER_PASSWORD). */
export const SEEDED_CUSTOMER = { id: "c_1", email: "ada@example.com" } as const;

export function hashPassword(password: string, salt = randomBytes(16).toString("hex")): string {
  return `${salt}:${scryptSync(password, salt, 32).toString("hex")}`;
}

function open(): Database.Database {
  const db = new Database(process.env.MINI_DATABASE_FILE ?? "minimal-shop.db");
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  db.exec(SCHEMA);
  // A file made before registrations had `unreachable`: add it (CREATE … IF NOT EXISTS kept the
  // old table). No row of such a file found the service unreachable by this column.
  const columns = db.prepare("PRAGMA table_info(registrations)").all() as { name: string }[];
  if (!columns.some((c) => c.name === "unreachable")) {
    db.exec("ALTER TABLE registrations ADD COLUMN unreachable INTEGER NOT NULL DEFAULT 0");
  }
  const product = db.prepare("INSERT OR IGNORE INTO products VALUES (?, ?, ?, ?, ?)");
  for (const row of PRODUCTS) product.run(...row);
  const password = process.env.MINI_CUSTOMER_PASSWORD;
  if (password) {
    db.prepare(
      `INSERT INTO customers VALUES (?, ?, 'Ada', 'Lovelace', ?) ON CONFLICT(id) DO NOTHING`,
    ).run(SEEDED_CUSTOMER.id, SEEDED_CUSTOMER.email, hashPassword(password));
  }
  return db;
}

const state = globalThis as { miniDb?: Database.Database; miniChain?: Promise<unknown> };

export function db(): Database.Database {
  state.miniDb ??= open();
  return state.miniDb;
}

/** Closes the connection; the next db() opens the file again (with ":memory:", a new database). */
export async function closeDb(): Promise<void> {
  await state.miniChain;
  state.miniDb?.close();
  state.miniDb = undefined;
}

/**
 * One write transaction at a time: BEGIN IMMEDIATE takes SQLite's write lock at once (so what a
 * transaction reads stays as read until it commits, across processes), and a promise chain keeps
 * this process's async transactions from interleaving on the one connection. Never nest.
 */
export function transaction<T>(fn: () => Promise<T> | T): Promise<T> {
  const run = (state.miniChain ?? Promise.resolve()).then(async () => {
    db().exec("BEGIN IMMEDIATE");
    try {
      const result = await fn();
      db().exec("COMMIT");
      return result;
    } catch (error) {
      db().exec("ROLLBACK");
      throw error;
    }
  });
  state.miniChain = run.catch(() => undefined);
  return run;
}

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}
