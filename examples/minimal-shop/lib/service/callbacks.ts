import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import type { NewOrderColumns, ShopCallbacks } from "@service-integration/drizzle-adapter";
import { type SqliteQueries, sqliteTransaction } from "@service-integration/drizzle-adapter/sqlite";
import {
  type CheckoutDetails,
  checkoutBodySchema,
  orderItemsOf,
  orderStatusRules,
  type SessionIdentity,
} from "@service-integration/kit";
import { eq, getTableColumns } from "drizzle-orm";
import type { ShopDb } from "../db";
import * as t from "../schema";
import { sessionOfRequest } from "../session";
import { CURRENCY, cartAmounts, openCart, SHIPPING, shopBaseUrl } from "../shop";

// What this shop writes for the Drizzle adapter (ShopCallbacks): its status names, its open
// cart, an order made of it, a placed order's lines, the shopper's view. The integration's own
// records (tokens, kept checkouts, notifications, registrations, history) are the adapter's.
// ./wiring.ts is init's as written; what it takes from here besides the callbacks is below.

export { db as database, type ShopDb } from "../db";
export { shopBaseUrl } from "../shop";
export const ordersTable = () => t.orders;

/** The kit's SessionIdentity: the shop's sealed session cookie, read only. */
export const identity: SessionIdentity = { ofRequest: async (r) => sessionOfRequest(r) };

/** The body of the payment option's checkout routes (the kit's CheckoutDetailsBody). */
export const checkoutBody = checkoutBodySchema({ shippingMethods: ["standard"] });

/** The shop's status names: the kit's defaults (awaiting_payment, paid, on_hold, shipped, …). */
export const statuses = orderStatusRules();

const delivery = (price: number = SHIPPING.price) => ({
  ...SHIPPING,
  price,
  url: `${shopBaseUrl()}/`,
});

/** An order of the session's open cart, in the caller's transaction `q` (Service Pay's: the
 *  adapter's; the card's: actions.ts); the cart closes. Null: no open cart, or no such delivery. */
export async function createOrder(
  q: SqliteQueries,
  params: {
    details: CheckoutDetails;
    shopBaseUrl: string;
    columns: Pick<NewOrderColumns, "sessionId" | "customerId" | "status"> & {
      paymentMethod: string;
    };
  },
): Promise<string | null> {
  const { details, columns } = params;
  const cart = await openCart(q as ShopDb, columns.sessionId);
  if (!cart?.lines.length || details.shippingMethod !== SHIPPING.id) return null;
  const id = `o_${randomUUID()}`;
  const number = `MS-${randomBytes(3).toString("hex").toUpperCase()}`;
  const amounts = { ...cartAmounts(cart.lines), currency: CURRENCY, shippingPrice: SHIPPING.price };
  const { email } = details;
  await q.insert(t.orders).values({
    id,
    number,
    email,
    details: JSON.stringify(details),
    ...columns,
    ...amounts,
    cartId: cart.id,
  });
  const lines = orderItemsOf(cart.lines, params.shopBaseUrl).map((item) => ({
    orderId: id,
    ...item,
  }));
  await q.insert(t.orderLines).values(lines);
  await q.update(t.carts).set({ openSessionId: null }).where(eq(t.carts.id, cart.id));
  return id;
}

export const shopCallbacks = (db: ShopDb): ShopCallbacks<SqliteQueries> => ({
  statuses,
  openCartId: async (q, sessionId) => (await openCart(q as ShopDb, sessionId))?.id ?? null,
  createOrder,
  // A guest's pending Service Pay order nobody paid, with the cart it closed (the kit's sweep).
  async dropOrder(q, { id, cartId }) {
    await q.delete(t.orderLines).where(eq(t.orderLines.orderId, id));
    await q.delete(t.orders).where(eq(t.orders.id, id));
    await q.delete(t.cartLines).where(eq(t.cartLines.cartId, cartId));
    await q.delete(t.carts).where(eq(t.carts.id, cartId));
  },
  async placedOrder(q, order) {
    const { orderId, ...columns } = getTableColumns(t.orderLines);
    const items = await q.select(columns).from(t.orderLines).where(eq(orderId, order.id));
    return { items, delivery: delivery(order.shippingPrice) };
  },
  shopper: {
    customer: (id) =>
      sqliteTransaction(db, async (q) => {
        const [c] = await q.select().from(t.customers).where(eq(t.customers.id, id));
        return c
          ? { id, email: c.email, givenName: c.givenName, familyName: c.familyName, address: null }
          : null;
      }),
    openCart: (sessionId, base) =>
      sqliteTransaction(db, async (q) => {
        const cart = await openCart(q, sessionId);
        return cart?.lines.length
          ? { id: cart.id, currency: CURRENCY, items: orderItemsOf(cart.lines, base) }
          : null;
      }),
    shippingMethod: () => delivery(),
    defaultShippingMethod: SHIPPING.id,
  },
});
