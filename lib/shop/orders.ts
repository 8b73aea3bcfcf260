import { randomBytes } from "node:crypto";
import "server-only";
import { getDb, type Tx } from "@/lib/db/client";
import type { Order } from "@/lib/db/generated/client";
import { loadCartWith } from "./cart";
import { productUrl } from "./catalog";
import type { CheckoutInput } from "./checkout-input";
import { formatMoney, orderTotal } from "./money";
import { canTransition, manualNextStatuses, type OrderStatus } from "./order-status";
import { shippingPrice } from "./shipping";
import { chargeTestCard } from "./test-card";

export type StatusSource = "shop" | "admin" | "service";

/** One change of an order; `to` omitted keeps the status (the history still records it). */
export interface OrderChange {
  to?: string;
  source: StatusSource;
  note: string;
  serviceOrderId?: string;
  tradeInDiscount?: number;
  tradeInStatus?: string;
  tradeInMessage?: string | null;
}

/** Service Pay: the accepted valuation kept when the payment started (the Order columns). */
export interface OrderValuation {
  valuationState: string | null;
  valuationItemId: string | null;
  valuationValue: number | null;
  valuationCurrency: string | null;
  valuationNote: string | null;
}

/** The orders a lock names: by id, the service's order id or the cart (any that match). */
export interface OrderLockKeys {
  id?: string | null;
  serviceOrderId?: string | null;
  cartId?: string | null;
}

/**
 * The one writer of order history (OrderStatusChange, the integration's model), as the shop's
 * order changes need it: the composing layer (server actions, lib/service-adapter/) passes the
 * integration's writer in, so the service's changes and the shop's own (card checkout, back
 * office) are written by the same code and this folder imports nothing of the integration
 * (docs/decisions/integration-boundary.md). Each runs in the caller's transaction `tx`.
 */
export interface OrderWriter {
  /**
   * Changes the order (the total re-derived when the trade-in discount changes) and records
   * the change in its history, both in `tx`.
   */
  writeOrderChange: (tx: Tx, order: Order, change: OrderChange) => Promise<unknown>;
  /** A new order's first history line (from no status to its status). */
  recordNewOrder: (
    tx: Tx,
    order: { id: string; status: string },
    source: StatusSource,
    note: string,
  ) => Promise<unknown>;
  /**
   * Locks the orders `keys` name until `tx` ends, so what the caller reads next is the order as
   * it is and stays until its change is written: a change is never decided against a status
   * another transaction is about to replace (docs/decisions/concurrent-order-changes.md).
   */
  lockOrders: (tx: Tx, keys: OrderLockKeys) => Promise<unknown>;
}

/** The history's words for an order's discounts: "Promotion codes: SAVE10 (10 % off) −€12.34". */
export function discountsNote(
  discounts: readonly { code: string; name: string; total: number }[],
  currency: string,
): string {
  const each = discounts.map((d) => `${d.code} (${d.name}) −${formatMoney(d.total, currency)}`);
  return `Promotion ${discounts.length === 1 ? "code" : "codes"}: ${each.join(", ")}`;
}

function orderNumber(now: Date): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, "");
  return `SO-${day}-${randomBytes(3).toString("hex").toUpperCase()}`;
}

export class CheckoutError extends Error {
  constructor(
    readonly code: "empty_cart" | "cart_changed",
    message: string,
  ) {
    super(message);
  }
}

/**
 * Moves the session's open cart into a new order, in the caller's transaction: the cart is
 * marked checked out (exactly once: a second submit finds no open cart), items are copied as
 * a snapshot and the first status is recorded. Used by the card checkout below and, for the
 * service's payment, by the integration (it creates the order as `pending` when payment starts;
 * contract, Events: the webhook updates an order the merchant created earlier).
 */
export async function createOrderFromCart(
  tx: Tx,
  writer: OrderWriter,
  params: {
    sessionId: string;
    customerId: string | null;
    input: Omit<CheckoutInput, "card">;
    shopBaseUrl: string;
    status: OrderStatus;
    tradeInDiscount?: number;
    valuation?: OrderValuation;
    note?: string;
  },
) {
  const cart = await loadCartWith(tx, params.sessionId);
  if (!cart || cart.lines.length === 0) {
    throw new CheckoutError("empty_cart", "Your cart is empty.");
  }
  const closed = await tx.cart.updateMany({
    where: { id: cart.id, checkedOutAt: null },
    data: { checkedOutAt: new Date() },
  });
  if (closed.count !== 1) throw new CheckoutError("cart_changed", "Your cart has changed.");

  const shipping = shippingPrice(params.input.shippingMethod, cart.currency);
  const tradeInDiscount = params.tradeInDiscount ?? 0;
  const now = new Date();
  const billing = await tx.address.create({ data: { ...params.input.billing } });
  const shippingAddress = await tx.address.create({ data: { ...params.input.shipping } });
  const order = await tx.order.create({
    data: {
      number: orderNumber(now),
      cartId: cart.id,
      sessionId: params.sessionId,
      customerId: params.customerId,
      email: params.input.email,
      status: params.status,
      paymentMethod: params.input.paymentMethod,
      shippingMethod: params.input.shippingMethod,
      currency: cart.currency,
      price: cart.amounts.price,
      tax: cart.amounts.tax,
      shippingPrice: shipping,
      discountTotal: cart.amounts.discountTotal,
      tradeInDiscount,
      total: orderTotal({ ...cart.amounts, shippingPrice: shipping, tradeInDiscount }),
      billingAddressId: billing.id,
      shippingAddressId: shippingAddress.id,
      ...params.valuation,
      discounts: {
        create: cart.discounts.map(({ id, name, total }) => ({ code: id, name, total })),
      },
      items: {
        create: cart.lines.map((line) => ({
          productId: line.productId,
          name: line.name,
          description: line.description,
          url: productUrl(params.shopBaseUrl, line.slug),
          quantity: line.quantity,
          price: line.price,
          tax: line.tax,
          total: line.total,
        })),
      },
    },
  });
  // The first history line, unless the caller writes it (the Prisma adapter does for the
  // service's payment: ShopCallbacks.createOrder).
  if (params.note !== undefined) await writer.recordNewOrder(tx, order, "shop", params.note);
  // The order's history says what the promotion codes took off (status unchanged).
  if (cart.discounts.length > 0) {
    await writer.writeOrderChange(tx, order, {
      source: "shop",
      note: discountsNote(cart.discounts, cart.currency),
    });
  }
  return order;
}

export type PlaceOrderResult =
  | { ok: true; orderId: string; number: string }
  | { ok: false; error: string; emptyCart?: true };

/** Card checkout: charge the test card, then move the cart to a paid order in one transaction. */
export async function placeCardOrder(
  writer: OrderWriter,
  params: {
    sessionId: string;
    customerId: string | null;
    input: CheckoutInput;
    shopBaseUrl: string;
  },
): Promise<PlaceOrderResult> {
  const db = getDb();
  const cart = await loadCartWith(db, params.sessionId);
  if (!cart || cart.lines.length === 0) {
    return { ok: false, error: "Your cart is empty.", emptyCart: true };
  }
  if (!params.input.card) return { ok: false, error: "Enter your card details." };

  const amount = orderTotal({
    ...cart.amounts,
    shippingPrice: shippingPrice(params.input.shippingMethod, cart.currency),
    tradeInDiscount: 0,
  });
  const charge = chargeTestCard(params.input.card.number, amount);
  if (!charge.ok) {
    return {
      ok: false,
      error:
        charge.reason === "declined"
          ? "Your card was declined. Nothing was charged; try another card."
          : "This test shop only accepts the test cards shown below.",
    };
  }
  try {
    const order = await db.$transaction(async (tx) => {
      const created = await createOrderFromCart(tx, writer, {
        ...params,
        status: "pending",
        note: "Order placed",
      });
      // What the card paid is checked against what the order owes before it counts as paid:
      // a cart changed in another tab between the charge and this transaction would differ.
      if (created.total !== amount) {
        throw new CheckoutError("cart_changed", "Your cart changed while you paid. Try again.");
      }
      await writer.writeOrderChange(tx, created, {
        to: "payment_completed",
        source: "shop",
        note: `Card payment ${charge.reference}: ${formatMoney(amount, created.currency)} charged`,
      });
      return created;
    });
    return { ok: true, orderId: order.id, number: order.number };
  } catch (error) {
    if (error instanceof CheckoutError) return { ok: false, error: error.message };
    throw error;
  }
}

/**
 * Changes an order's status and records it in the history through `writer`, in one transaction,
 * the order locked first. Shop and admin changes must follow the allowed transitions (the
 * service's notifications are applied by the integration, packages/kit/src/order-webhook.ts,
 * through the same writer).
 */
export async function changeOrderStatus(
  writer: OrderWriter,
  params: {
    orderId: string;
    to: string;
    source: StatusSource;
    note?: string;
  },
): Promise<{ ok: true } | { ok: false; error: string }> {
  return getDb().$transaction(async (tx) => {
    await writer.lockOrders(tx, { id: params.orderId });
    const order = await tx.order.findUnique({ where: { id: params.orderId } });
    if (!order) return { ok: false, error: "Order not found." };
    if (order.status === params.to) return { ok: true };
    if (!canTransition(order.status, params.to)) {
      return { ok: false, error: `An order cannot go from ${order.status} to ${params.to}.` };
    }
    if (
      params.source === "admin" &&
      !(manualNextStatuses(order) as readonly string[]).includes(params.to)
    ) {
      return {
        ok: false,
        error: "A Service Pay order is marked paid only by the service's payment notification.",
      };
    }
    await writer.writeOrderChange(tx, order, {
      to: params.to,
      source: params.source,
      note: params.note ?? "",
    });
    return { ok: true };
  });
}

const orderDetailInclude = {
  items: true,
  discounts: true,
  billingAddress: true,
  shippingAddress: true,
  customer: { select: { email: true, given_name: true, family_name: true } },
} as const;

/** The order with its status history (the Prisma adapter's OrderStatusChange, by orderId). */
async function withHistory<T extends { id: string }>(order: T | null) {
  if (!order) return null;
  const history = await getDb().orderStatusChange.findMany({
    where: { orderId: order.id },
    orderBy: { createdAt: "asc" },
  });
  return { ...order, history };
}

export async function getOrder(id: string) {
  return withHistory(
    await getDb().order.findUnique({ where: { id }, include: orderDetailInclude }),
  );
}

/** The confirmation page shows the session's latest order, so it needs no query parameter. */
export async function latestOrderForSession(sessionId: string) {
  return withHistory(
    await getDb().order.findFirst({
      where: { sessionId },
      orderBy: { createdAt: "desc" },
      include: orderDetailInclude,
    }),
  );
}

export interface OrderFilters {
  status?: string;
  paymentMethod?: string;
  query?: string;
  from?: Date;
  to?: Date;
}

export async function listOrders(filters: OrderFilters, take = 100) {
  const query = filters.query?.trim();
  return getDb().order.findMany({
    where: {
      ...(filters.status ? { status: filters.status } : {}),
      ...(filters.paymentMethod ? { paymentMethod: filters.paymentMethod } : {}),
      ...(filters.from || filters.to
        ? {
            createdAt: {
              ...(filters.from ? { gte: filters.from } : {}),
              ...(filters.to ? { lt: filters.to } : {}),
            },
          }
        : {}),
      ...(query
        ? {
            OR: [
              { number: { contains: query } },
              { email: { contains: query } },
              { serviceOrderId: { contains: query } },
              { cartId: query },
            ],
          }
        : {}),
    },
    orderBy: { createdAt: "desc" },
    take,
    include: { _count: { select: { items: true } } },
  });
}

export async function listKnownStatuses(): Promise<string[]> {
  const rows = await getDb().order.findMany({ distinct: ["status"], select: { status: true } });
  return rows.map((r) => r.status);
}
