import "server-only";
import { randomUUID } from "node:crypto";
import type { PgQueries } from "@service-integration/drizzle-adapter/pg";
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  ne,
  notInArray,
  sql,
} from "drizzle-orm";
import { z } from "zod";
import { db } from "./db";
import * as t from "./schema";

// The shop's domain: products, the cart per session, orders. It knows nothing of the service;
// lib/service/ joins the two. `q` is the database or the transaction a read happens in.

export type Product = typeof t.products.$inferSelect;
export interface CartLine extends Product {
  productId: string;
  quantity: number;
}
// biome-ignore lint/suspicious/noExplicitAny: any schema's database or transaction
type Q = PgQueries<any>;

export const CURRENCY = "EUR";
/** The one delivery method: a flat price with VAT included. */
export const SHIPPING = { id: "standard", name: "Standardversand", price: 490 } as const;

export const shopBaseUrl = () => process.env.SHOP_URL ?? "http://localhost:5610";
/** Euros as a German shopper reads them: "1.004,90 €". */
export const euro = (cents: number) =>
  new Intl.NumberFormat("de-DE", { style: "currency", currency: CURRENCY }).format(cents / 100);

export const products = () => db().select().from(t.products).orderBy(desc(t.products.price));

/** The session's open cart (null when it has none). */
export async function openCart(q: Q, sessionId: string) {
  const [cart] = await q.select().from(t.carts).where(eq(t.carts.openSessionId, sessionId));
  if (!cart) return null;
  const lines: CartLine[] = (
    await q
      .select()
      .from(t.cartLines)
      .innerJoin(t.products, eq(t.products.id, t.cartLines.productId))
      .where(eq(t.cartLines.cartId, cart.id))
      .orderBy(desc(t.products.price))
  ).map((row) => ({ ...row.products, ...row.cart_lines }));
  return { id: cart.id, lines };
}

export function cartAmounts(lines: readonly { price: number; tax: number; quantity: number }[]) {
  const price = lines.reduce((sum, l) => sum + l.price * l.quantity, 0);
  const tax = lines.reduce((sum, l) => sum + l.tax * l.quantity, 0);
  return { price, tax, total: price + tax + (lines.length > 0 ? SHIPPING.price : 0) };
}

/** ANONYMOUS_CARTS_MAX: how many open guest carts the shop keeps (default 50,000). */
export const anonymousCartsMax = () =>
  z.coerce.number().int().positive().default(50_000).parse(process.env.ANONYMOUS_CARTS_MAX);

/** How long after its details were kept a payment counts as open: the kit's modal lifetime
 *  (pending-order.ts, servicePaymentOpen). */
const PAYMENT_OPEN_MS = 30 * 60 * 1000;

/** Adds one unit; the open cart is made on the first add. `customerId`: the signed-in shopper
 *  (their cart is never dropped); a guest's new cart may drop the oldest guest carts past the cap. */
export function addToCart(
  sessionId: string,
  productId: string,
  on = db(),
  {
    customerId = null,
    cap = anonymousCartsMax(),
  }: { customerId?: string | null; cap?: number } = {},
): Promise<void> {
  return on.transaction(async (q) => {
    const cart = { id: `cart_${randomUUID()}`, sessionId, openSessionId: sessionId, customerId };
    const made = await q.insert(t.carts).values(cart).onConflictDoNothing().returning();
    const [open] = await q.select().from(t.carts).where(eq(t.carts.openSessionId, sessionId));
    const cartId = open?.id ?? cart.id;
    await q
      .insert(t.cartLines)
      .values({ cartId, productId, quantity: 1 })
      .onConflictDoUpdate({
        target: [t.cartLines.cartId, t.cartLines.productId],
        set: { quantity: sql`${t.cartLines.quantity} + 1` },
      });
    await q.update(t.carts).set({ updatedAt: new Date() }).where(eq(t.carts.id, cartId));
    if (made.length > 0 && !customerId) await dropGuestCartsPastCap(q, cartId, cap);
  });
}

/**
 * Every cookieless request is a new guest session (proxy.ts), so add-to-cart alone could grow
 * `carts` without end: the open guest carts are kept to the cap, in the transaction that adds
 * one. Past it the least recently changed go (down to nine tenths of it, so a flood pays for a
 * drop once per cap/10 new carts) with their lines and the details kept for them, except a cart
 * whose Service Pay payment is open (details kept within the modal's lifetime: the service may
 * be collecting for it). A signed-in customer's cart is never dropped.
 */
async function dropGuestCartsPastCap(q: Q, keep: string, cap: number): Promise<void> {
  const guestOpen = and(isNull(t.carts.customerId), isNotNull(t.carts.openSessionId));
  const [counted] = await q.select({ n: count() }).from(t.carts).where(guestOpen);
  const open = counted?.n ?? 0;
  if (open <= cap) return;
  const paying = q
    .select({ cartId: t.serviceCheckouts.cartId })
    .from(t.serviceCheckouts)
    .where(gt(t.serviceCheckouts.updatedAt, new Date(Date.now() - PAYMENT_OPEN_MS)));
  const oldest = await q
    .select({ id: t.carts.id })
    .from(t.carts)
    .where(and(guestOpen, ne(t.carts.id, keep), notInArray(t.carts.id, paying)))
    .orderBy(asc(t.carts.updatedAt))
    .limit(open - Math.floor(cap * 0.9));
  const ids = oldest.map((c) => c.id);
  if (ids.length === 0) return;
  await q.delete(t.cartLines).where(inArray(t.cartLines.cartId, ids));
  await q.delete(t.serviceCheckouts).where(inArray(t.serviceCheckouts.cartId, ids));
  await q.delete(t.carts).where(inArray(t.carts.id, ids));
}

/** A guest signing in keeps their cart (the kit's guest identity rotates the session id at
 *  sign-in): the open cart of `from` becomes the open cart of `to`, the customer's. */
export async function carryCart(
  from: string,
  to: string,
  customerId: string,
  on = db(),
): Promise<void> {
  await on
    .update(t.carts)
    .set({ sessionId: to, openSessionId: to, customerId })
    .where(eq(t.carts.openSessionId, from));
}

/** The session's newest order (the confirmation page). */
export async function latestOrder(sessionId: string) {
  const [order] = await db()
    .select()
    .from(t.orders)
    .where(eq(t.orders.sessionId, sessionId))
    .orderBy(desc(t.orders.createdAt))
    .limit(1);
  return order ?? null;
}
