import { describe, expect, it } from "vitest";
import { addToCart } from "@/lib/shop/cart";
import { jsonRequest, newSession, sessionCookie, setUpTestShop } from "@/test-support/test-shop";
import { POST as tradeInSeen } from "./trade-in-seen/route";

// The caps of docs/security.md (Bounded storage) at a production-sized cap: the first request
// past a cap of 10,000 drops a tenth of it (1,001 rows) at once, more rows than one statement may
// bind values for on SQLite (Prisma answers P2029). anonymous-storage.test.ts floods the routes
// with a cap of 100, whose trims are small; here the tables are filled directly to the cap, and
// one request more must still be answered and trim. Each table is filled with a row made by the
// route, then its copies by one INSERT … SELECT over a recursive counter (the same text on SQLite
// and PostgreSQL; the copies take the row's own stored times).

const CAP = 10_000;
const shop = setUpTestShop({ ANONYMOUS_CARTS_MAX: String(CAP) });

describe("a trim past a cap of 10,000", () => {
  it("the seen trade-ins: the request past the cap is answered and the oldest tenth go", async () => {
    const first = newSession();
    await tradeInSeen(
      jsonRequest(
        "http://shop.test/api/service/trade-in-seen",
        { tradein_id: "t-first" },
        await sessionCookie(first),
      ),
    );
    await shop.db.$executeRaw`
      WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < ${CAP})
      INSERT INTO "SessionTradeIn" ("sessionId", "tradeInId", "seenAt")
      SELECT 'filled-' || i, 't' || i, s."seenAt" FROM n, "SessionTradeIn" s
      WHERE s."sessionId" = ${first.sessionId}`;
    expect(await shop.db.sessionTradeIn.count()).toBe(CAP);
    const res = await tradeInSeen(
      jsonRequest(
        "http://shop.test/api/service/trade-in-seen",
        { tradein_id: "t-past" },
        await sessionCookie(newSession()),
      ),
    );
    expect(res.status).toBe(200);
    expect(await shop.db.sessionTradeIn.count()).toBe(CAP * 0.9);
  });

  it("the anonymous carts: the add past the cap is made and the least recently changed tenth go with their lines", async () => {
    const first = newSession();
    await addToCart({
      sessionId: first.sessionId,
      currency: "EUR",
      productId: shop.products.cable.id,
      quantity: 1,
    });
    await shop.db.$executeRaw`
      WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < ${CAP})
      INSERT INTO "Cart" ("id", "sessionId", "currency", "createdAt", "updatedAt")
      SELECT 'cart-' || i, 'cart-session-' || i, 'EUR', c."createdAt", c."updatedAt"
      FROM n, "Cart" c WHERE c."sessionId" = ${first.sessionId}`;
    await shop.db.$executeRaw`
      INSERT INTO "CartItem" ("id", "cartId", "productId", "quantity", "createdAt")
      SELECT 'item-' || c."id", c."id", i."productId", 1, i."createdAt"
      FROM "Cart" c, "CartItem" i WHERE c."id" LIKE 'cart-%' AND i."cartId" = (
        SELECT "id" FROM "Cart" WHERE "sessionId" = ${first.sessionId})`;
    expect(await shop.db.cart.count({ where: { customerId: null } })).toBe(CAP);
    expect(await shop.db.cartItem.count()).toBe(CAP);
    const added = await addToCart({
      sessionId: newSession().sessionId,
      currency: "EUR",
      productId: shop.products.cable.id,
      quantity: 1,
    });
    expect(added).toEqual({ ok: true });
    expect(await shop.db.cart.count({ where: { customerId: null } })).toBe(CAP * 0.9);
    expect(await shop.db.cartItem.count()).toBe(CAP * 0.9);
  });
});
