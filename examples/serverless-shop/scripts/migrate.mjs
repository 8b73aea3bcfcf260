// The deploy step (`npm run db:migrate`): a host without a resident process migrates before a
// release, never in a request. Applies drizzle/ (the integration's tables, Better Auth's and the
// shop's), then seeds the three products and, when SHOP_CUSTOMER_PASSWORD is set, the customer
// ada@example.com as Better Auth's sign-up makes one (a user and its "credential" account).
import path from "node:path";
import { hashPassword } from "better-auth/crypto";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";

const PRODUCTS = [
  {
    id: "laptop",
    name: "Laptop 14",
    description: "Ein leichter Laptop.",
    price: 84000,
    tax: 15960,
  },
  { id: "phone", name: "Telefon X", description: "Großer Bildschirm.", price: 42000, tax: 7980 },
  { id: "cable", name: "USB-C-Kabel", description: "Zwei Meter.", price: 1000, tax: 190 },
];

const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL is required");
const pool = new pg.Pool({ connectionString: url, max: 1 });
try {
  await migrate(drizzle(pool), { migrationsFolder: path.join(import.meta.dirname, "../drizzle") });
  for (const p of PRODUCTS)
    await pool.query(
      "INSERT INTO products (id, name, description, price, tax) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
      [p.id, p.name, p.description, p.price, p.tax],
    );
  const password = process.env.SHOP_CUSTOMER_PASSWORD;
  if (password) {
    await pool.query(
      `INSERT INTO "user" (id, name, email, email_verified) VALUES ('u_ada', 'Ada Lovelace', 'ada@example.com', true) ON CONFLICT DO NOTHING`,
    );
    await pool.query(
      `INSERT INTO account (id, account_id, provider_id, user_id, password) VALUES ('a_ada', 'u_ada', 'credential', 'u_ada', $1) ON CONFLICT DO NOTHING`,
      [await hashPassword(password)],
    );
  }
} finally {
  await pool.end();
}
