// The test shop's callbacks (the kit's ShopCallbacks) in Kysely: everything a shop writes to use
// the adapter. One piece of code for both databases, as a shop on one database writes it once;
// `stamp` is how the shop's own time columns store a Date (PostgreSQL: as it is; SQLite: ms).
import { randomUUID } from "node:crypto";
import { addressSchema, type ShopCallbacks } from "@service-integration/kit";
import {
  testDelivery,
  testOrderValues,
  testPhoneLine,
  testShopStatuses,
} from "@service-integration/kit/testing";
import type { Kysely } from "kysely";
import type { ShopDatabase } from "./shop-tables.js";

export type ShopDb = Kysely<ShopDatabase>;

export function testShopCallbacks(
  db: ShopDb,
  stamp: (at: Date) => Date | number,
): ShopCallbacks<ShopDb> {
  async function openCartId(q: ShopDb, sessionId: string): Promise<string | null> {
    const cart = await q
      .selectFrom("carts")
      .select("id")
      .where("sessionId", "=", sessionId)
      .where("checkedOutAt", "is", null)
      .where((eb) =>
        eb.exists(eb.selectFrom("cartLines").select("cartId").whereRef("cartId", "=", "carts.id")),
      )
      .orderBy("createdAt", "desc")
      .limit(1)
      .executeTakeFirst();
    return cart?.id ?? null;
  }
  const linesOf = (q: ShopDb, cartId: string) =>
    q.selectFrom("cartLines").select("quantity").where("cartId", "=", cartId).execute();

  return {
    statuses: testShopStatuses,
    openCartId,
    async createOrder(q, params) {
      const cartId = await openCartId(q, params.sessionId);
      const lines = cartId === null ? [] : await linesOf(q, cartId);
      // Null: no open cart, or a delivery method the shop does not have.
      const values = cartId === null ? null : testOrderValues(params, cartId, lines);
      if (values === null) return null;
      const id = randomUUID();
      await q
        .insertInto("orders")
        .values({ id, number: `K-${id.slice(0, 8).toUpperCase()}`, ...values })
        .execute();
      await q
        .insertInto("orderLines")
        .values(
          lines.map((l) => ({ orderId: id, ...testPhoneLine(l.quantity, params.shopBaseUrl) })),
        )
        .execute();
      await q
        .updateTable("carts")
        .set({ checkedOutAt: stamp(new Date()) })
        .where("id", "=", cartId)
        .execute();
      return id;
    },
    async dropOrder(q, { id, cartId }) {
      await q.deleteFrom("orderLines").where("orderId", "=", id).execute();
      await q.deleteFrom("orders").where("id", "=", id).execute();
      await q.deleteFrom("cartLines").where("cartId", "=", cartId).execute();
      await q.deleteFrom("carts").where("id", "=", cartId).execute();
    },
    async placedOrder(q, order) {
      const row = await q
        .selectFrom("orders")
        .select("shippingMethod")
        .where("id", "=", order.id)
        .executeTakeFirstOrThrow();
      const items = await q
        .selectFrom("orderLines")
        .select(["productId", "name", "description", "url", "quantity", "price", "tax"])
        .where("orderId", "=", order.id)
        .execute();
      return { items, delivery: testDelivery(row.shippingMethod, order.shippingPrice) };
    },
    shopper: {
      async customer(id) {
        const row = await db
          .selectFrom("customers")
          .selectAll()
          .where("id", "=", id)
          .executeTakeFirst();
        if (!row) return null;
        const address = row.address ? addressSchema.parse(JSON.parse(row.address)) : null;
        return { ...row, address };
      },
      async openCart(sessionId, shopBaseUrl) {
        const id = await openCartId(db, sessionId);
        if (!id) return null;
        const items = (await linesOf(db, id)).map((l) => testPhoneLine(l.quantity, shopBaseUrl));
        return { id, currency: "EUR", items };
      },
      shippingMethod: (id) => testDelivery(id),
      defaultShippingMethod: "standard",
    },
  };
}
