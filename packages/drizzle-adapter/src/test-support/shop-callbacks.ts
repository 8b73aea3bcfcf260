// The test shop's callbacks (ShopCallbacks): everything a shop writes to use the adapter, and
// the measure of what that costs. The same code serves both dialects' tables (the query
// builder reads the same), as a shop on one database would write it once.
import { randomUUID } from "node:crypto";
import type { ShopCallbacks } from "@service-integration/kit";
import {
  addressSchema,
  type DeliveryCharge,
  type OrderStatusRules,
} from "@service-integration/kit";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Builder } from "../core.js";
import type { pgShop } from "./shop-tables.js";

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
    async createOrder(q, { sessionId, details, columns, shopBaseUrl }) {
      const cartId = await openCartId(q, sessionId);
      const method = SHIPPING[details.shippingMethod];
      if (!cartId || !method) return null;
      const lines: { productId: string; quantity: number }[] = await q
        .select()
        .from(t.cartLines)
        .where(eq(t.cartLines.cartId, cartId));
      const price = lines.reduce((sum, l) => sum + PHONE.price * l.quantity, 0);
      const tax = lines.reduce((sum, l) => sum + PHONE.tax * l.quantity, 0);
      const id = randomUUID();
      await q.insert(t.orders).values({
        id,
        number: `T-${id.slice(0, 8).toUpperCase()}`,
        email: details.email,
        shippingMethod: method.id,
        ...columns,
        cartId,
        currency: "EUR",
        price,
        tax,
        shippingPrice: method.price,
        total: price + tax + method.price,
      });
      await q.insert(t.orderLines).values(
        lines.map((l) => ({
          orderId: id,
          productId: l.productId,
          name: PHONE.name,
          description: PHONE.description,
          url: `${shopBaseUrl}/products/${l.productId}`,
          quantity: l.quantity,
          price: PHONE.price,
          tax: PHONE.tax,
        })),
      );
      await q.update(t.carts).set({ checkedOutAt: new Date() }).where(eq(t.carts.id, cartId));
      return id;
    },
    async placedOrder(q, order) {
      const [row] = await q
        .select({ shippingMethod: t.orders.shippingMethod })
        .from(t.orders)
        .where(eq(t.orders.id, order.id));
      return {
        items: await linesOf(q, order.id),
        delivery: delivery(row.shippingMethod, order.shippingPrice),
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
          const items = lines.map((l: { productId: string; quantity: number }) => ({
            productId: l.productId,
            name: PHONE.name,
            description: PHONE.description,
            url: `${shopBaseUrl}/products/${l.productId}`,
            quantity: l.quantity,
            price: PHONE.price,
            tax: PHONE.tax,
          }));
          return { id, currency: "EUR", items };
        }),
      shippingMethod: (id) => delivery(id),
      defaultShippingMethod: "standard",
    },
  };
}
