import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import { db } from "./db";

// The shop's domain: products, the cart per session, orders and their statuses. It knows nothing
// of the service; lib/adapter/ joins the two.

export interface Product {
  id: string;
  name: string;
  description: string;
  price: number;
  tax: number;
}
export interface CartLine extends Product {
  productId: string;
  quantity: number;
}
export interface Cart {
  id: string;
  lines: CartLine[];
}

export const CURRENCY = "EUR";
/** The one delivery method: a flat price with VAT included. */
export const SHIPPING = { id: "standard", name: "Standard delivery", price: 490 } as const;

export const euro = (cents: number) => `€${(cents / 100).toFixed(2)}`;

export function products(): Product[] {
  return db().prepare("SELECT * FROM products ORDER BY price DESC").all() as Product[];
}

/** The session's open cart (null when it has none). Read inside or outside a transaction. */
export function openCart(sessionId: string): Cart | null {
  const cart = db().prepare("SELECT id FROM carts WHERE openSessionId = ?").get(sessionId) as
    | { id: string }
    | undefined;
  if (!cart) return null;
  const lines = db()
    .prepare(
      `SELECT p.*, l.productId, l.quantity FROM cart_lines l JOIN products p ON p.id = l.productId
       WHERE l.cartId = ? ORDER BY p.price DESC`,
    )
    .all(cart.id) as CartLine[];
  return { id: cart.id, lines };
}

export function cartAmounts(lines: readonly { price: number; tax: number; quantity: number }[]) {
  const price = lines.reduce((sum, l) => sum + l.price * l.quantity, 0);
  const tax = lines.reduce((sum, l) => sum + l.tax * l.quantity, 0);
  return { price, tax, total: price + tax + (lines.length > 0 ? SHIPPING.price : 0) };
}

/** Adds one unit; inside the caller's transaction. The open cart is made on the first add. */
export function addToCart(sessionId: string, productId: string): void {
  db()
    .prepare(
      "INSERT INTO carts (id, openSessionId, sessionId) VALUES (?, ?, ?) ON CONFLICT(openSessionId) DO NOTHING",
    )
    .run(`cart_${randomUUID()}`, sessionId, sessionId);
  db()
    .prepare(
      `INSERT INTO cart_lines (cartId, productId, quantity)
       SELECT id, ?, 1 FROM carts WHERE openSessionId = ?
       ON CONFLICT(cartId, productId) DO UPDATE SET quantity = quantity + 1`,
    )
    .run(productId, sessionId);
}

// ---- statuses (the shop's own names; lib/adapter maps the service's onto them)

export const TRANSITIONS: Record<string, readonly string[]> = {
  awaiting_payment: ["paid", "on_hold", "cancelled"],
  on_hold: ["paid", "cancelled"],
  paid: ["shipped", "complete", "cancelled"],
  shipped: ["complete", "returned"],
  complete: ["returned"],
  returned: [],
  cancelled: [],
};

export function canReach(from: string, to: string): boolean {
  const seen = new Set<string>();
  const queue = [...(TRANSITIONS[from] ?? [])];
  while (queue.length > 0) {
    const next = queue.shift() as string;
    if (next === to) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...(TRANSITIONS[next] ?? []));
  }
  return false;
}

// ---- orders

export interface OrderRow {
  id: string;
  number: string;
  cartId: string;
  sessionId: string;
  customerId: string | null;
  status: string;
  serviceOrderId: string | null;
  paymentMethod: string;
  currency: string;
  price: number;
  tax: number;
  shippingMethod: string;
  shippingPrice: number;
  tradeInDiscount: number;
  total: number;
  tradeInStatus: string | null;
  tradeInMessage: string | null;
  email: string;
  details: string;
  valuationState: string | null;
  valuationItemId: string | null;
  valuationValue: number | null;
  valuationCurrency: string | null;
  valuationNote: string | null;
  createdAt: number;
}

export type Valuation = Pick<
  OrderRow,
  "valuationState" | "valuationItemId" | "valuationValue" | "valuationCurrency" | "valuationNote"
>;

export function orderById(id: string): OrderRow | null {
  return (db().prepare("SELECT * FROM orders WHERE id = ?").get(id) as OrderRow) ?? null;
}

/**
 * Moves the session's open cart into an order, inside the caller's transaction: lines copied,
 * cart closed (a second call finds no open cart: null), first status in the history.
 */
export function createOrderFromCart(params: {
  sessionId: string;
  customerId: string | null;
  email: string;
  details: unknown;
  paymentMethod: string;
  status: string;
  valuation: Valuation;
  note: string;
  productUrl: (productId: string) => string;
}): OrderRow | null {
  const cart = openCart(params.sessionId);
  if (!cart || cart.lines.length === 0) return null;
  const { price, tax, total } = cartAmounts(cart.lines);
  const id = `o_${randomUUID()}`;
  const number = `MS-${randomBytes(3).toString("hex").toUpperCase()}`;
  db()
    .prepare(
      `INSERT INTO orders (id, number, cartId, sessionId, customerId, status, paymentMethod,
        currency, price, tax, shippingMethod, shippingPrice, tradeInDiscount, total, email, details,
        valuationState, valuationItemId, valuationValue, valuationCurrency, valuationNote, createdAt)
       VALUES (@id, @number, @cartId, @sessionId, @customerId, @status, @paymentMethod, @currency,
        @price, @tax, @shippingMethod, @shippingPrice, 0, @total, @email, @details, @valuationState,
        @valuationItemId, @valuationValue, @valuationCurrency, @valuationNote, @createdAt)`,
    )
    .run({
      id,
      number,
      cartId: cart.id,
      sessionId: params.sessionId,
      customerId: params.customerId,
      status: params.status,
      paymentMethod: params.paymentMethod,
      currency: CURRENCY,
      price,
      tax,
      shippingMethod: SHIPPING.id,
      shippingPrice: SHIPPING.price,
      total,
      email: params.email,
      details: JSON.stringify(params.details),
      ...params.valuation,
      createdAt: Date.now(),
    });
  const item = db().prepare("INSERT INTO order_items VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  for (const l of cart.lines) {
    item.run(
      id,
      l.productId,
      l.name,
      l.description,
      params.productUrl(l.productId),
      l.quantity,
      l.price,
      l.tax * l.quantity,
    );
  }
  db().prepare("UPDATE carts SET openSessionId = NULL WHERE id = ?").run(cart.id);
  recordHistory(id, null, params.status, "shop", params.note);
  return orderById(id);
}

export function recordHistory(
  orderId: string,
  from: string | null,
  to: string,
  source: string,
  note: string,
): void {
  db()
    .prepare(
      "INSERT INTO order_history (orderId, fromStatus, toStatus, source, note, at) VALUES (?, ?, ?, ?, ?, ?)",
    )
    .run(orderId, from, to, source, note.slice(0, 1000), Date.now());
}

/** The session's newest order (the confirmation page). */
export function latestOrder(sessionId: string): OrderRow | null {
  return (
    (db()
      .prepare("SELECT * FROM orders WHERE sessionId = ? ORDER BY createdAt DESC LIMIT 1")
      .get(sessionId) as OrderRow) ?? null
  );
}
