import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import type { NewOrderColumns, ShopCallbacks } from "@service-integration/drizzle-adapter";
import type { PgQueries } from "@service-integration/drizzle-adapter/pg";
import type { CheckoutDetails, OrderStatusRules, ShopOrderItem } from "@service-integration/kit";
import { eq, getTableColumns } from "drizzle-orm";
import type { ShopDb } from "../db";
import * as t from "../schema";
import { type CartLine, CURRENCY, cartAmounts, openCart, SHIPPING, shopBaseUrl } from "../shop";

// What this shop writes for the Drizzle adapter (ShopCallbacks): its status names, its open
// cart, an order made of it, a placed order's lines, the shopper's view. The integration's own
// records (tokens, kept checkouts, notifications, registrations, history) are the adapter's.

// biome-ignore lint/suspicious/noExplicitAny: any schema's database or transaction
type Q = PgQueries<any>;

const TRANSITIONS: Record<string, readonly string[]> = {
  awaiting_payment: ["paid", "on_hold", "cancelled"],
  on_hold: ["paid", "cancelled"],
  paid: ["shipped", "complete", "cancelled"],
  shipped: ["complete", "returned"],
  complete: ["returned"],
};
const canReach = (from: string, to: string, seen = new Set<string>()): boolean =>
  (TRANSITIONS[from] ?? []).some(
    (s) => s === to || (!seen.has(s) && seen.add(s) && canReach(s, to, seen)),
  );

/** The shop's own status names for what the service reports (the kit's OrderStatusRules). */
export const statuses: OrderStatusRules = {
  forServiceStatus: {
    pending: "awaiting_payment",
    payment_completed: "paid",
    completed: "complete",
  },
  afterUpdate: {
    shipped: "shipped",
    returned: "returned",
    partial_shipment: null,
    partial_return: null,
    cart_update: null,
  },
  isKnown: (status) => status in TRANSITIONS || status === "returned" || status === "cancelled",
  canReach,
  canTransition: (from, to) => (TRANSITIONS[from] ?? []).includes(to),
  isPaidOrLater: (status) => ["paid", "shipped", "complete", "returned"].includes(status),
  held: "on_hold",
};

const delivery = (price: number = SHIPPING.price) => ({
  ...SHIPPING,
  price,
  url: `${shopBaseUrl()}/`,
});
const itemsOf = (lines: CartLine[], base: string): ShopOrderItem[] =>
  lines.map(({ productId, name, description, quantity, price, tax }) => ({
    productId,
    name,
    description,
    url: `${base}/#${productId}`,
    quantity,
    price,
    tax: tax * quantity,
  }));

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
  const lines = itemsOf(cart.lines, params.shopBaseUrl).map((item) => ({ orderId: id, ...item }));
  await q.insert(t.orderLines).values(lines);
  await q.update(t.carts).set({ openSessionId: null }).where(eq(t.carts.id, cart.id));
  return { id, total: amounts.total };
}

export const shopCallbacks = (db: ShopDb): ShopCallbacks<Q> => ({
  statuses,
  openCartId: async (q, sessionId) => (await openCart(q, sessionId))?.id ?? null,
  createOrder: async (q, params) => (await createOrder(q, params))?.id ?? null,
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
        ? { id: cart.id, currency: CURRENCY, items: itemsOf(cart.lines, base) }
        : null;
    },
    shippingMethod: () => delivery(),
    defaultShippingMethod: SHIPPING.id,
  },
});
