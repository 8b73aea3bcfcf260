import "server-only";
import { randomUUID } from "node:crypto";
import { sqliteTransaction } from "@service-integration/drizzle-adapter/sqlite";
import { desc, eq, sql } from "drizzle-orm";
import { db, type ShopDb } from "./db";
import * as t from "./schema";

// The shop's domain: products, the cart per session, orders. It knows nothing of the service;
// lib/service/ joins the two. `q` is the database or the transaction a read happens in.

export type Product = typeof t.products.$inferSelect;
export interface CartLine extends Product {
  productId: string;
  quantity: number;
}

export const CURRENCY = "EUR";
/** The one delivery method: a flat price with VAT included. */
export const SHIPPING = { id: "standard", name: "Standard delivery", price: 490 } as const;

export const shopBaseUrl = () => process.env.MINI_SHOP_URL ?? "http://localhost:5510";
export const euro = (cents: number) => `€${(cents / 100).toFixed(2)}`;

export const products = () => db().select().from(t.products).orderBy(desc(t.products.price)).all();

/** The session's open cart (null when it has none). */
export async function openCart(q: ShopDb, sessionId: string) {
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
export function addToCart(on: ShopDb, sessionId: string, productId: string): Promise<void> {
  return sqliteTransaction(on, async (q) => {
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
