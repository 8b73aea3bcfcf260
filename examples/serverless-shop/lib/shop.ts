import "server-only";
import { randomUUID } from "node:crypto";
import type { PgQueries } from "@service-integration/drizzle-adapter/pg";
import { desc, eq, sql } from "drizzle-orm";
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

/** Adds one unit; the open cart is made on the first add. */
export function addToCart(sessionId: string, productId: string, on = db()): Promise<void> {
  return on.transaction(async (q) => {
    const cart = { id: `cart_${randomUUID()}`, sessionId, openSessionId: sessionId };
    await q.insert(t.carts).values(cart).onConflictDoNothing();
    const [open] = await q.select().from(t.carts).where(eq(t.carts.openSessionId, sessionId));
    await q
      .insert(t.cartLines)
      .values({ cartId: open?.id ?? cart.id, productId, quantity: 1 })
      .onConflictDoUpdate({
        target: [t.cartLines.cartId, t.cartLines.productId],
        set: { quantity: sql`${t.cartLines.quantity} + 1` },
      });
  });
}

/** A guest signing in keeps their cart (the kit's guest identity rotates the session id at
 *  sign-in): the open cart of `from` becomes the open cart of `to`. */
export async function carryCart(from: string, to: string, on = db()): Promise<void> {
  await on
    .update(t.carts)
    .set({ sessionId: to, openSessionId: to })
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
