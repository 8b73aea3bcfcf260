import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import type { NewOrderColumns, ShopCallbacks } from "@service-integration/drizzle-adapter";
import type { PgQueries } from "@service-integration/drizzle-adapter/pg";
import { type CheckoutDetails, orderItemsOf, orderStatusRules } from "@service-integration/kit";
import { eq, getTableColumns } from "drizzle-orm";
import type { ShopDb } from "../db";
import * as t from "../schema";
import { CURRENCY, cartAmounts, openCart, SHIPPING, shopBaseUrl } from "../shop";

// What this shop writes for the Drizzle adapter (ShopCallbacks): its status names, its open
// cart, an order made of it, a placed order's lines, the shopper's view. The integration's own
// records (tokens, kept checkouts, notifications, registrations, history) are the adapter's.

// biome-ignore lint/suspicious/noExplicitAny: any schema's database or transaction
type Q = PgQueries<any>;

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
  q: Q,
  params: {
    details: CheckoutDetails;
    shopBaseUrl: string;
    columns: Pick<NewOrderColumns, "sessionId" | "customerId" | "status"> & {
      paymentMethod: string;
    };
  },
): Promise<{ id: string; total: number } | null> {
  const { details, columns } = params;
  const cart = await openCart(q, columns.sessionId);
  if (!cart?.lines.length || details.shippingMethod !== SHIPPING.id) return null;
  const id = `o_${randomUUID()}`;
  const number = `SL-${randomBytes(3).toString("hex").toUpperCase()}`;
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
  return { id, total: amounts.total };
}

export const shopCallbacks = (db: ShopDb): ShopCallbacks<Q> => ({
  statuses,
  openCartId: async (q, sessionId) => (await openCart(q, sessionId))?.id ?? null,
  createOrder: async (q, params) => (await createOrder(q, params))?.id ?? null,
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
    // The customer is Better Auth's user: its name is one field, split at the last space.
    async customer(id) {
      const [u] = await db.select().from(t.user).where(eq(t.user.id, id));
      if (!u) return null;
      const cut = u.name.lastIndexOf(" ");
      const [givenName, familyName] =
        cut > 0 ? [u.name.slice(0, cut), u.name.slice(cut + 1)] : [u.name, ""];
      return { id, email: u.email, givenName, familyName, address: null };
    },
    async openCart(sessionId, base) {
      const cart = await openCart(db, sessionId);
      return cart?.lines.length
        ? { id: cart.id, currency: CURRENCY, items: orderItemsOf(cart.lines, base) }
        : null;
    },
    shippingMethod: () => delivery(),
    defaultShippingMethod: SHIPPING.id,
  },
});
