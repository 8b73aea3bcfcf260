// The adapter's own checks where the kit's conformance suite is silent: a token row that does
// not open (another key, plain text, a value moved between rows) reads as no tokens, and the
// inspector's log (two instances write, either reads; the latest 100, oldest first). Moved here
// from the shop's tests of its former Prisma stores; and how many statements the webhook's
// apply sends (its cost, docs/decisions/webhook-storage.md). Run on both databases.
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { type OrderNotification, parseOrderNotification } from "@service-integration/kit";
import { applyStored, createTokenSealer } from "@service-integration/kit/server";
import type { SuiteHost } from "@service-integration/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prismaServiceAdapter as onPg } from "../pg.js";
import { prismaServiceAdapter as onSqlite } from "../sqlite.js";
import { PrismaClient as PgClient } from "./generated/postgresql/client.js";
import { PrismaClient } from "./generated/sqlite/client.js";
import type { TestDatabase } from "./host.js";
import { sealer } from "./host.js";
import { testShopCallbacks, testShopStatuses } from "./shop-callbacks.js";

const TOKENS = {
  accessToken: "at-plain-1",
  refreshToken: "rt-plain-1",
  userId: "uid-plain-1",
  merchantId: "m1",
  scope: "core",
  accessExpiresAt: new Date("2030-01-01T00:00:00Z"),
};

const entry = (label: string) => ({
  at: new Date().toISOString(),
  kind: "api" as const,
  label,
  ok: true,
});

/** `factory` (a Prisma driver adapter's), telling `seen` every statement its connections and
 *  their transactions run, through the driver adapter interface Prisma calls. */
function counting<F extends object>(factory: F, seen: (sql: string) => void): F {
  const watch = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(real, key) {
        const value = Reflect.get(real, key, real);
        if (typeof value !== "function") return value;
        if (key === "queryRaw" || key === "executeRaw")
          return (query: { sql: string }) => {
            seen(query.sql);
            return value.call(real, query);
          };
        if (key === "connect" || key === "startTransaction")
          return async (...args: unknown[]) => watch(await value.apply(real, args));
        return value.bind(real);
      },
    });
  return watch(factory);
}

/** A second client on the database at `url` whose statements are told to `seen`. */
function countedClient(
  provider: "postgresql" | "sqlite",
  url: string,
  seen: (sql: string) => void,
): PrismaClient {
  return provider === "postgresql"
    ? (new PgClient({
        adapter: counting(new PrismaPg({ connectionString: url }), seen),
      }) as unknown as PrismaClient)
    : new PrismaClient({
        adapter: counting(new PrismaBetterSQLite3({ url, timeout: 5000 }), seen),
      });
}

/** A Service Pay order of the test shop awaiting payment: €100.00 + €21.00 VAT + €4.99 delivery. */
const awaitingPayment = (name: string) => ({
  number: `T-${name.toUpperCase()}`,
  email: "ana@example.com",
  shippingMethod: "standard",
  cartId: `cart-${name}`,
  sessionId: `s-${name}`,
  status: "awaiting_payment",
  paymentMethod: "service_pay",
  currency: "EUR",
  price: 10_000,
  tax: 2_100,
  shippingPrice: 499,
  total: 12_599,
});

/** The transaction's own BEGIN/COMMIT apart: the statements of the work. */
const work = (statements: string[]) =>
  statements.filter((sql) => !/^\s*(BEGIN|COMMIT|ROLLBACK)\b/i.test(sql));

/** The checks, on one database for the test file (`open`'s, emptied between checks, made
 *  before the first check outside its time limit, removed after the last). */
export function runAdapterChecks(provider: "postgresql" | "sqlite", open: SuiteHost<TestDatabase>) {
  const make = provider === "postgresql" ? onPg : onSqlite;
  const adapterOf = (t: TestDatabase, options: { tokenId?: string; key?: string } = {}) =>
    make({
      db: t.db,
      shop: testShopCallbacks(t.db),
      sealer: options.key ? createTokenSealer(options.key) : sealer,
      tokenId: options.tokenId,
    });

  describe(`the Prisma adapter's own checks on ${provider}`, () => {
    beforeAll(() => open.open());
    afterAll(() => open.dispose());

    it("reads a token row it cannot open (another key, a plain-text row, a value moved between rows) as no tokens", async () => {
      const t = await open();
      try {
        const store = adapterOf(t, { tokenId: "rekeyed" }).tokens;
        await store.save(TOKENS);
        const raw = JSON.stringify(await t.db.serviceToken.findMany());
        for (const plain of ["at-plain-1", "rt-plain-1", "uid-plain-1"])
          expect(raw).not.toContain(plain);
        const otherKey = adapterOf(t, { tokenId: "rekeyed", key: "o".repeat(32) }).tokens;
        expect(await otherKey.load()).toBeNull();
        // A row written in plain text (before tokens were sealed) is not trusted either.
        await t.db.serviceToken.update({
          where: { id: "rekeyed" },
          data: { accessToken: "plain" },
        });
        expect(await store.load()).toBeNull();
        // A sealed value copied from another row does not open in this one.
        await adapterOf(t, { tokenId: "mover" }).tokens.save(TOKENS);
        const moved = await t.db.serviceToken.findUniqueOrThrow({ where: { id: "mover" } });
        await t.db.serviceToken.update({
          where: { id: "rekeyed" },
          data: {
            accessToken: moved.accessToken,
            refreshToken: moved.refreshToken,
            userId: moved.userId,
          },
        });
        expect(await store.load()).toBeNull();
        // Saving again under the current key makes the row usable.
        await store.save(TOKENS);
        expect(await store.load()).toEqual(TOKENS);
      } finally {
        await t.close();
      }
    });

    it("reads an order's cart-level discounts (discountTotal) and keeps them in the total it re-derives", async () => {
      const t = await open();
      try {
        // €100.00 + €21.00 VAT + €4.99 delivery − a €12.10 promotion code.
        const row = await t.db.order.create({
          data: { ...awaitingPayment("discount"), discountTotal: 1_210, total: 12_599 - 1_210 },
        });
        const adapter = adapterOf(t);
        const order = await adapter.servicePay.transaction((tx) =>
          tx.findOrderFor(null, "cart-discount"),
        );
        expect(order).toMatchObject({ id: row.id, discountTotal: 1_210, total: 11_389 });
        if (!order) throw new Error("no order");
        const changed = await adapter.servicePay.transaction((tx) =>
          tx.changeOrder(order, { source: "service", note: "trade-in", tradeInDiscount: 5_000 }),
        );
        // The kit's orderTotal: items + tax + delivery − discounts − trade-in.
        expect(changed).toMatchObject({
          discountTotal: 1_210,
          tradeInDiscount: 5_000,
          total: 6_389,
        });
        expect((await t.db.order.findUniqueOrThrow({ where: { id: row.id } })).total).toBe(6_389);
      } finally {
        await t.close();
      }
    });

    it("applies a stored notification in seven statements: its order locked and read in one, its older stored rows looked up in one and read only when there are some", async () => {
      const t = await open();
      const statements: string[] = [];
      const db = countedClient(provider, t.url, (sql) => statements.push(sql));
      try {
        const row = await t.db.order.create({
          data: { ...awaitingPayment("count"), serviceOrderId: "svc-count" },
        });
        const store = adapterOf({ ...t, db }).servicePay;
        const note = (id: string, status: string): OrderNotification => ({
          dedupeKey: `id:${id}`,
          notificationId: id,
          event: "order.payment_completed",
          serviceOrderId: "svc-count",
          cartId: "cart-count",
          status,
          amount: 12_599,
          currency: "EUR",
          tradeInDiscount: 0,
          customerId: null,
          form: "flat",
          body: "{}",
        });
        // One batch, stored in this order: the payment first, then the completion.
        const [paid, completed] = await store.storeBatch([
          note("wh_1", "payment_completed"),
          note("wh_2", "completed"),
        ]);
        if (!paid || !completed) throw new Error("not stored");

        // The hostile case: an older stored row of the order is found, and then read.
        statements.length = 0;
        const older = await store.transaction((tx) =>
          tx.storedBefore(completed, "cart-count", "svc-count"),
        );
        expect(older.map((r) => [r.id, r.status])).toEqual([[paid, "payment_completed"]]);
        expect(work(statements)).toHaveLength(2);

        // The usual case, none older: one statement decides (two model queries here cost 20-35 %
        // more CPU per apply, docs/decisions/webhook-storage.md).
        statements.length = 0;
        expect(
          await store.transaction((tx) => tx.storedBefore(paid, "cart-count", "svc-count")),
        ).toEqual([]);
        expect(work(statements)).toHaveLength(1);

        // The whole apply of the payment, in one transaction: lock and read the order in one
        // statement (a second, model query, costs the drain of a backlog about 1 ms of CPU per
        // apply, docs/decisions/webhook-storage.md), look for older rows, claim, check the id's
        // reuse, change the order, its history line, settle.
        statements.length = 0;
        const deps = {
          store,
          statuses: testShopStatuses,
          mode: "ready_to_place_order" as const,
          shopBaseUrl: "http://shop.test",
        };
        const [receipt] = await applyStored(deps, [
          { ...note("wh_1", "payment_completed"), id: paid },
        ]);
        expect(receipt).not.toBeNull();
        expect((await t.db.order.findUniqueOrThrow({ where: { id: row.id } })).status).toBe("paid");
        expect(work(statements)).toHaveLength(7);
      } finally {
        await db.$disconnect();
        await t.close();
      }
    });

    it("stores a batch's receivedAt as the driver adapter writes that Date itself (SQLite: both timestamp formats), read back through the model API one millisecond apart in the batch's order", async () => {
      const t = await open();
      // SQLite keeps a DateTime as the driver adapter wrote it, text or milliseconds by its
      // timestampFormat option, and compares and orders by what is stored.
      const formats = provider === "sqlite" ? [undefined, "unixepoch-ms" as const] : [undefined];
      try {
        for (const timestampFormat of formats) {
          const label = timestampFormat ?? "default";
          const db =
            provider === "sqlite"
              ? new PrismaClient({
                  adapter: new PrismaBetterSQLite3(
                    { url: t.url, timeout: 5000 },
                    { timestampFormat },
                  ),
                })
              : t.db;
          // As the webhook parses a delivery (only the time is under test here).
          const note = (i: number) =>
            parseOrderNotification(
              new TextEncoder().encode(
                JSON.stringify({ id: `wh_${i}`, cart_id: `cart-${label}`, status: "completed" }),
              ),
            );
          const before = Date.now();
          const ids = await adapterOf({ ...t, db }).servicePay.storeBatch([0, 1, 2].map(note));
          const after = Date.now();
          const rows = await db.serviceNotification.findMany({
            where: { cartId: `cart-${label}` },
            orderBy: [{ receivedAt: "asc" }, { id: "asc" }],
          });
          expect(rows.map((r) => r.id)).toEqual(ids);
          const first = rows[0]?.receivedAt.getTime() ?? 0;
          expect(first).toBeGreaterThanOrEqual(before);
          expect(first).toBeLessThanOrEqual(after);
          expect(rows.map((r) => r.receivedAt.getTime() - first)).toEqual([0, 1, 2]);
          // The same Date written by the model API is stored the same way, to the byte.
          const receivedAt = rows[1]?.receivedAt ?? new Date();
          const { customerId: _, ...columns } = note(9);
          await db.serviceNotification.create({
            data: { ...columns, dedupeKey: `time:${label}:model`, receivedAt },
          });
          const stored = (
            provider === "sqlite"
              ? await db.$queryRaw<{ dedupeKey: string; v: string }[]>`
                SELECT "dedupeKey", typeof("receivedAt") || ':' || CAST("receivedAt" AS TEXT) AS v
                FROM "ServiceNotification" WHERE "cartId" = ${`cart-${label}`}`
              : await db.$queryRaw<{ dedupeKey: string; v: string }[]>`
                SELECT "dedupeKey", CAST("receivedAt" AS TEXT) AS v
                FROM "ServiceNotification" WHERE "cartId" = ${`cart-${label}`}`
          ).sort((a, b) => a.dedupeKey.localeCompare(b.dedupeKey));
          expect(stored[1]?.v, label).toBe(stored[3]?.v);
          if (db !== t.db) await db.$disconnect();
        }
      } finally {
        await t.close();
      }
    });

    it("shows a shopper what every instance logged for them, and nobody else; the latest 100, oldest first", async () => {
      const t = await open();
      try {
        const one = adapterOf(t).integrationLog;
        const two = adapterOf(t).integrationLog;
        await one.append("mine", { ...entry("GET /core/merchants/"), status: 200, durationMs: 12 });
        await two.append("mine", {
          ...entry("POST /register-purchase"),
          detail: "attempt 2",
          expected: "renewed and repeated",
        });
        await two.append("theirs", entry("GET /core/sessions/x/"));
        const seen = await one.read("mine", 0);
        expect(seen.map((e) => e.label)).toEqual([
          "GET /core/merchants/",
          "POST /register-purchase",
        ]);
        expect(seen[0]).toMatchObject({ kind: "api", ok: true, status: 200, durationMs: 12 });
        expect(seen[1]).toMatchObject({ detail: "attempt 2", expected: "renewed and repeated" });
        expect(seen[1]).not.toHaveProperty("status");
        expect(await two.read("mine", seen[0]?.seq ?? 0)).toHaveLength(1);

        // The latest 100 of 105 rows: the rows go in as one statement, in order (append's
        // own write is proven above; 105 appends, a statement each, were most of this check).
        await t.db.integrationLogEntry.createMany({
          data: Array.from({ length: 105 }, (_, i) => ({
            key: "busy",
            at: new Date(),
            kind: "api",
            label: `s${i}`,
            ok: true,
          })),
        });
        const busy = await two.read("busy", 0);
        expect(busy).toHaveLength(100);
        expect(busy[0]?.label).toBe("s5");
        expect(busy.at(-1)?.label).toBe("s104");
      } finally {
        await t.close();
      }
    });
  });
}
