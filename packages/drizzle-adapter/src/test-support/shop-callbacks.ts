// The test shop's callbacks (ShopCallbacks): everything a shop writes to use the adapter, and
// the measure of what that costs. The same code serves both dialects' tables (the query
// builder reads the same), as a shop on one database would write it once.
import { randomUUID } from "node:crypto";
import type { ShopCallbacks } from "@service-integration/kit";
import { addressSchema } from "@service-integration/kit";
import {
  testDelivery,
  testOrderValues,
  testPhoneLine,
  testShopStatuses,
} from "@service-integration/kit/testing";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Builder } from "../core.js";
import type { pgShop } from "./shop-tables.js";

export { TEST_PHONE as PHONE, testShopStatuses } from "@service-integration/kit/testing";

/** The shop's callbacks over its tables (either dialect's: the same columns); `read` runs the
 *  shopper source's reads on the shop's database (SQLite: in the adapter's queue). */
export function testShopCallbacks(
  t: typeof pgShop,
  read: <T>(fn: (q: Builder) => Promise<T>) => Promise<T>,
): ShopCallbacks<Builder> {
  async function openCartId(q: Builder, sessionId: string): Promise<string | null> {
    const [cart] = await q
      .select({ id: t.carts.id })
      .from(t.carts)
      .where(and(eq(t.carts.sessionId, sessionId), isNull(t.carts.checkedOutAt)))
      .orderBy(desc(t.carts.createdAt))
      .limit(1);
    if (!cart) return null;
    const lines = await q
      .select()
      .from(t.cartLines)
      .where(eq(t.cartLines.cartId, cart.id))
      .limit(1);
    return lines.length > 0 ? cart.id : null;
  }
  const linesOf = (q: Builder, orderId: string) =>
    q
      .select({
        productId: t.orderLines.productId,
        name: t.orderLines.name,
        description: t.orderLines.description,
        url: t.orderLines.url,
        quantity: t.orderLines.quantity,
        price: t.orderLines.price,
        tax: t.orderLines.tax,
      })
      .from(t.orderLines)
      .where(eq(t.orderLines.orderId, orderId));
  return {
    statuses: testShopStatuses,
    openCartId,
    async createOrder(q, params) {
      const cartId = await openCartId(q, params.sessionId);
      if (!cartId) return null;
      const lines: { quantity: number }[] = await q
        .select()
        .from(t.cartLines)
        .where(eq(t.cartLines.cartId, cartId));
      const values = testOrderValues(params, cartId, lines);
      if (!values) return null;
      const id = randomUUID();
      await q
        .insert(t.orders)
        .values({ id, number: `T-${id.slice(0, 8).toUpperCase()}`, ...values });
      await q
        .insert(t.orderLines)
        .values(
          lines.map((l) => ({ orderId: id, ...testPhoneLine(l.quantity, params.shopBaseUrl) })),
        );
      await q.update(t.carts).set({ checkedOutAt: new Date() }).where(eq(t.carts.id, cartId));
      return id;
    },
    async dropOrder(q, { id, cartId }) {
      await q.delete(t.orderLines).where(eq(t.orderLines.orderId, id));
      await q.delete(t.orders).where(eq(t.orders.id, id));
      await q.delete(t.cartLines).where(eq(t.cartLines.cartId, cartId));
      await q.delete(t.carts).where(eq(t.carts.id, cartId));
    },
    async placedOrder(q, order) {
      const [row] = await q
        .select({ shippingMethod: t.orders.shippingMethod })
        .from(t.orders)
        .where(eq(t.orders.id, order.id));
      return {
        items: await linesOf(q, order.id),
        delivery: testDelivery(row.shippingMethod, order.shippingPrice),
      };
    },
    shopper: {
      customer: (id) =>
        read(async (q) => {
          const [row] = await q.select().from(t.customers).where(eq(t.customers.id, id));
          if (!row) return null;
          const { email, givenName, familyName } = row;
          const address = row.address ? addressSchema.parse(JSON.parse(row.address)) : null;
          return { id, email, givenName, familyName, address };
        }),
      openCart: (sessionId, shopBaseUrl) =>
        read(async (q) => {
          const id = await openCartId(q, sessionId);
          if (!id) return null;
          const lines = await q.select().from(t.cartLines).where(eq(t.cartLines.cartId, id));
          const items = lines.map((l: { productId: string; quantity: number }) =>
            testPhoneLine(l.quantity, shopBaseUrl),
          );
          return { id, currency: "EUR", items };
        }),
      shippingMethod: (id) => testDelivery(id),
      defaultShippingMethod: "standard",
    },
  };
}
