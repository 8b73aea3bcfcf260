// The test shop's callbacks (ShopCallbacks) on its Prisma models: everything a shop writes to
// use the adapter, and the measure of what that costs. The same code serves both providers
// (the two generated clients have the same models).

import type { ShopCallbacks } from "@service-integration/kit";
import {
  addressSchema,
  type DeliveryCharge,
  type OrderStatusRules,
} from "@service-integration/kit";
import type { PrismaClient } from "./generated/sqlite/client.js";

/** What the test shop's callbacks are given: its client, or its interactive transaction's. */
export type TestTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** The shop's one product, EUR, cents before tax and tax. */
export const PHONE = {
  id: "phone",
  name: "Phone",
  description: "A phone",
  price: 10_000,
  tax: 2_300,
};
const SHIPPING: Record<string, Omit<DeliveryCharge, "url">> = {
  standard: { id: "standard", name: "Standard delivery", price: 490, tax: 0 },
};
const delivery = (id: string, price?: number): DeliveryCharge => {
  const method = SHIPPING[id] ?? { id, name: id, price: 0 };
  return { ...method, price: price ?? method.price, url: `http://shop.test/delivery/${id}` };
};

// The shop's own status names: paid is not the contract's word here.
const TRANSITIONS: Record<string, string[]> = {
  awaiting_payment: ["paid", "complete", "on_hold", "cancelled"],
  paid: ["partially_shipped", "shipped", "complete", "on_hold", "cancelled"],
  partially_shipped: ["shipped", "complete"],
  shipped: ["complete", "returned"],
  complete: ["returned"],
  on_hold: ["paid", "cancelled"],
  returned: [],
  cancelled: [],
};
const canReach = (from: string, to: string): boolean => {
  const seen = new Set<string>();
  const next = [...(TRANSITIONS[from] ?? [])];
  for (let s = next.pop(); s !== undefined; s = next.pop()) {
    if (s === to) return true;
    if (seen.has(s)) continue;
    seen.add(s);
    next.push(...(TRANSITIONS[s] ?? []));
  }
  return false;
};
const PAID = new Set(["paid", "partially_shipped", "shipped", "complete", "returned"]);

export const testShopStatuses: OrderStatusRules = {
  forServiceStatus: {
    pending: "awaiting_payment",
    payment_completed: "paid",
    completed: "complete",
  },
  afterUpdate: {
    shipped: "shipped",
    returned: "returned",
    partial_shipment: "partially_shipped",
    partial_return: null,
    cart_update: null,
  },
  isKnown: (status) => status in TRANSITIONS,
  canReach,
  canTransition: (from, to) => (TRANSITIONS[from] ?? []).includes(to),
  isPaidOrLater: (status) => PAID.has(status),
  held: "on_hold",
};

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
    async createOrder(tx, { sessionId, details, columns, shopBaseUrl }) {
      const cartId = await openCartId(tx, sessionId);
      const method = SHIPPING[details.shippingMethod];
      if (!cartId || !method) return null;
      const lines = await tx.cartLine.findMany({ where: { cartId } });
      const price = lines.reduce((sum, l) => sum + PHONE.price * l.quantity, 0);
      const tax = lines.reduce((sum, l) => sum + PHONE.tax * l.quantity, 0);
      const number = `T-${cartId.slice(-8).toUpperCase()}`;
      const order = await tx.order.create({
        data: {
          number,
          email: details.email,
          shippingMethod: method.id,
          ...columns,
          cartId,
          currency: "EUR",
          price,
          tax,
          shippingPrice: method.price,
          total: price + tax + method.price,
          lines: {
            create: lines.map((l) => ({
              productId: l.productId,
              name: PHONE.name,
              description: PHONE.description,
              url: `${shopBaseUrl}/products/${l.productId}`,
              quantity: l.quantity,
              price: PHONE.price,
              tax: PHONE.tax,
            })),
          },
        },
      });
      await tx.cart.update({ where: { id: cartId }, data: { checkedOutAt: new Date() } });
      return order.id;
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
        delivery: delivery(row.shippingMethod, order.shippingPrice),
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
        const items = lines.map((l) => ({
          productId: l.productId,
          name: PHONE.name,
          description: PHONE.description,
          url: `${shopBaseUrl}/products/${l.productId}`,
          quantity: l.quantity,
          price: PHONE.price,
          tax: PHONE.tax,
        }));
        return { id, currency: "EUR", items };
      },
      shippingMethod: (id) => delivery(id),
      defaultShippingMethod: "standard",
    },
  };
}
