// The SQLite database the webhook benchmarks run against (bench:webhook, webhook-apply-cost):
// the project's migrations of `appDir` and `orders` pending Service Pay orders with their
// addresses and first history line, whose amounts never match the deliveries' (every order is
// held for a person), so every notification takes the same path.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { benchCartId } from "./webhook-deliveries.mjs";

/** Creates `file`; `seed(db)` adds rows in the same transaction (a token row). */
export function createBenchDatabase(file, { appDir, orders, seed = () => {} }) {
  const db = new Database(file);
  const dir = path.join(appDir, "prisma/migrations");
  for (const folder of readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()) {
    db.exec(readFileSync(path.join(dir, folder, "migration.sql"), "utf8"));
  }
  // Prisma's DateTime text for SQLite, so seeded rows sort like the ones the app writes.
  const now = new Date().toISOString().replace("Z", "+00:00");
  const address = db.prepare(
    `INSERT INTO "Address" (id, given_name, family_name, phone, address, city, state, country_code, postal_code)
     VALUES (?, 'Ada', 'Lovelace', '+353 1 555 0100', '1 Analytical Row', 'Dublin', '', 'IE', 'D02 X285')`,
  );
  const order = db.prepare(
    `INSERT INTO "Order" (id, number, cartId, sessionId, email, status, paymentMethod, shippingMethod,
       currency, price, tax, shippingPrice, tradeInDiscount, total, billingAddressId, shippingAddressId,
       createdAt, updatedAt)
     VALUES (?, ?, ?, 'bench-session', 'ada@example.com', 'pending', 'service_pay', 'standard',
       'EUR', 10000, 2300, 499, 0, 12799, ?, ?, ?, ?)`,
  );
  const history = db.prepare(
    `INSERT INTO "OrderStatusChange" (id, orderId, "from", "to", source, note, createdAt)
     VALUES (?, ?, NULL, 'pending', 'shop', '', ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < orders; i++) {
      address.run(`ab${i}`);
      address.run(`as${i}`);
      order.run(`o${i}`, `SO-BENCH-${i}`, benchCartId(i), `ab${i}`, `as${i}`, now, now);
      history.run(`h${i}`, `o${i}`, now);
    }
    seed(db);
  })();
  db.close();
}
