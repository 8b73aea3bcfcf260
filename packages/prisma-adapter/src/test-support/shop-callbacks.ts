// The test shop's callbacks (ShopCallbacks) on its Prisma models: everything a shop writes to
// use the adapter, and the measure of what that costs. The same code serves both providers
// (the two generated clients have the same models).

import type { ShopCallbacks } from "@service-integration/kit";
import { addressSchema } from "@service-integration/kit";
import type { PrismaClient } from "./generated/sqlite/client.js";

/** What the test shop's callbacks are given: its client, or its interactive transaction's. */
export type TestTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

import {
  testDelivery,
  testOrderValues,
  testPhoneLine,
  testShopStatuses,
} from "@service-integration/kit/testing";

export { TEST_PHONE as PHONE, testShopStatuses } from "@service-integration/kit/testing";

async function openCartId(tx: TestTx, sessionId: string): Promise<string | null> {
  const cart = await tx.cart.findFirst({
    where: { sessionId, checkedOutAt: null },
    orderBy: { createdAt: "desc" },
    include: { lines: { take: 1 } },
  });
  return cart && cart.lines.length > 0 ? cart.id : null;
}

/** The test shop's callbacks over its client `db`. */
export function testShopCallbacks(db: PrismaClient): ShopCallbacks<TestTx> {
  return {
    statuses: testShopStatuses,
    openCartId,
    async createOrder(tx, params) {
      const cartId = await openCartId(tx, params.sessionId);
      if (!cartId) return null;
      const lines = await tx.cartLine.findMany({ where: { cartId } });
      const values = testOrderValues(params, cartId, lines);
      if (!values) return null;
      const create = lines.map((l) => testPhoneLine(l.quantity, params.shopBaseUrl));
      const number = `T-${cartId.slice(-8).toUpperCase()}`;
      const order = await tx.order.create({ data: { number, ...values, lines: { create } } });
      await tx.cart.update({ where: { id: cartId }, data: { checkedOutAt: new Date() } });
      return order.id;
    },
    async dropOrder(tx, { id, cartId }) {
      await tx.orderLine.deleteMany({ where: { orderId: id } });
      await tx.order.delete({ where: { id } });
      await tx.cartLine.deleteMany({ where: { cartId } });
      await tx.cart.deleteMany({ where: { id: cartId } });
    },
    async placedOrder(tx, order) {
      const row = await tx.order.findUniqueOrThrow({
        where: { id: order.id },
        include: { lines: true },
      });
      return {
        items: row.lines.map(({ productId, name, description, url, quantity, price, tax }) => ({
          productId,
          name,
          description,
          url,
          quantity,
          price,
          tax,
        })),
        delivery: testDelivery(row.shippingMethod, order.shippingPrice),
      };
    },
    shopper: {
      async customer(id) {
        const row = await db.customer.findUnique({ where: { id } });
        if (!row) return null;
        const { email, givenName, familyName } = row;
        const address = row.address ? addressSchema.parse(JSON.parse(row.address)) : null;
        return { id, email, givenName, familyName, address };
      },
      async openCart(sessionId, shopBaseUrl) {
        const id = await openCartId(db, sessionId);
        if (!id) return null;
        const lines = await db.cartLine.findMany({ where: { cartId: id } });
        const items = lines.map((l) => testPhoneLine(l.quantity, shopBaseUrl));
        return { id, currency: "EUR", items };
      },
      shippingMethod: (id) => testDelivery(id),
      defaultShippingMethod: "standard",
    },
  };
}
