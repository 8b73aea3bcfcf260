// The adapter's own checks where the kit's conformance suite is silent: a token row that does
// not open (another key, plain text, a value moved between rows) reads as no tokens, and the
// inspector's log (two instances write, either reads; the latest 100, oldest first). Moved here
// from the shop's tests of its former Prisma stores. Run on both databases.
import { createTokenSealer } from "@service-integration/kit/server";
import { describe, expect, it } from "vitest";
import { prismaServiceAdapter as onPg } from "../pg.js";
import { prismaServiceAdapter as onSqlite } from "../sqlite.js";
import type { TestDatabase } from "./host.js";
import { sealer } from "./host.js";
import { testShopCallbacks } from "./shop-callbacks.js";

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

export function runAdapterChecks(
  provider: "postgresql" | "sqlite",
  open: () => Promise<TestDatabase>,
) {
  const make = provider === "postgresql" ? onPg : onSqlite;
  const adapterOf = (t: TestDatabase, options: { tokenId?: string; key?: string } = {}) =>
    make({
      db: t.db,
      shop: testShopCallbacks(t.db),
      sealer: options.key ? createTokenSealer(options.key) : sealer,
      tokenId: options.tokenId,
    });

  describe(`the Prisma adapter's own checks on ${provider}`, () => {
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
          data: {
            number: "T-DISCOUNT",
            email: "ana@example.com",
            shippingMethod: "standard",
            cartId: "cart-discount",
            sessionId: "s-discount",
            status: "awaiting_payment",
            paymentMethod: "service_pay",
            currency: "EUR",
            price: 10_000,
            tax: 2_100,
            shippingPrice: 499,
            discountTotal: 1_210,
            total: 10_000 + 2_100 + 499 - 1_210,
          },
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

        for (let i = 0; i < 105; i++) await one.append("busy", entry(`s${i}`));
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
