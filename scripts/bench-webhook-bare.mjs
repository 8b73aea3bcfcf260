// Target (c) of `npm run bench:webhook`: the least a webhook receiver can do, on bare node:http.
// Raw body → constant-time HMAC-SHA256 check → JSON parse → one transaction inserting the
// notification under its unique key (a repeat is a duplicate) and moving the order. No framework,
// no ORM, no validation library: the ceiling the Next.js route is compared with.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import Database from "better-sqlite3";

const db = new Database(process.env.BENCH_DB);
// The same settings as the app's connection (lib/db/sqlite-wal.ts): WAL, synchronous FULL.
db.pragma("journal_mode = WAL");
db.pragma("busy_timeout = 5000");
const secret = process.env.BENCH_SECRET;
const insert = db.prepare(
  `INSERT INTO "ServiceNotification" (id, dedupeKey, notificationId, cartId, status, form, body, outcome, receivedAt)
   VALUES (?, ?, ?, ?, ?, ?, ?, 'applied', ?)`,
);
const move = db.prepare(`UPDATE "Order" SET status = ?, updatedAt = ? WHERE cartId = ?`);
let seq = 0;
const receive = db.transaction((n, raw) => {
  const now = Date.now();
  insert.run(
    `b${seq++}`,
    `id:${n.id}`,
    n.id,
    n.cart_id,
    n.status,
    n.data ? "data" : "flat",
    raw,
    now,
  );
  move.run(n.status, now, n.cart_id);
});

function answer(res, status, body) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

createServer((req, res) => {
  if (req.url === "/health") return answer(res, 200, { ok: true });
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const raw = Buffer.concat(chunks);
    const given = Buffer.from(String(req.headers["x-service-signature"] ?? ""), "hex");
    const expected = createHmac("sha256", secret).update(raw).digest();
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return answer(res, 403, { error: "forbidden" });
    }
    let n;
    try {
      n = JSON.parse(raw.toString("utf8"));
      n = { ...n, ...n.data, data: n.data };
    } catch {
      return answer(res, 400, { error: "bad_request" });
    }
    try {
      receive(n, raw.toString("utf8"));
      answer(res, 200, { received: true });
    } catch (error) {
      if (error.code === "SQLITE_CONSTRAINT_UNIQUE") return answer(res, 200, { duplicate: true });
      answer(res, 500, { error: "internal_server_error" });
    }
  });
}).listen(Number(process.env.BENCH_PORT), "127.0.0.1");
