import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import type { EmulatorContext, EmulatorEnv, EmulatorModule } from "../context";
import { readJson } from "../http/body";
import { cents, decodeCart } from "../http/cart";
import { fail, reply } from "../http/errors";
import { requireBearer } from "../http/middleware";
import { orderView } from "../http/views";

// POST /register-purchase (contract, Service API): the shopper paid by another method; the
// trade-in is applied as cashback. The session hash travels in `session_hash` (the contract
// leaves the field name open; the public docs call the value session_hash).

export const registerPurchaseBody = z.object({
  session_hash: z.string().min(1, "session_hash is required"),
  cart: z.string({ error: "cart must be a string: Base64 of the JSON cart" }),
  order_amount: cents,
  order_id: z.string().min(1).max(200).optional(),
  customer_id: z.string().min(1).max(200).optional(),
});

/**
 * One register-purchase as the service received it, whatever it answered: a shop that registers
 * the same purchase twice shows two receipts (the second `duplicate: true`) although the service
 * counts the purchase once, so a test can assert the shop sent exactly one.
 */
export interface PurchaseReceipt {
  n: number;
  received_at: string;
  status: number;
  session_hash: string | null;
  order_id: string | null;
  cart_id: string | null;
  order_amount: unknown;
  duplicate: boolean;
  /** The merchant whose token sent it (null without a known token). */
  merchant_id: string | null;
}

const receipts = new WeakMap<EmulatorContext, PurchaseReceipt[]>();

/** Every register-purchase that reached the service since the last reset, oldest first. */
export function purchaseReceipts(ctx: EmulatorContext): PurchaseReceipt[] {
  return receipts.get(ctx) ?? [];
}

function lenientJson(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const text = (value: unknown) => (typeof value === "string" ? value : null);

function recordReceipts(ctx: EmulatorContext): MiddlewareHandler<EmulatorEnv> {
  let n = 0;
  const list: PurchaseReceipt[] = [];
  receipts.set(ctx, list);
  ctx.onReset(() => {
    list.length = 0;
  });
  ctx.onMerchantReset((merchantId) => {
    const kept = list.filter((r) => r.merchant_id !== merchantId);
    list.length = 0;
    list.push(...kept);
  });
  return async (c, next) => {
    const received_at = new Date(ctx.clock.now(c.get("merchantId"))).toISOString();
    await next();
    // After the answer: the body was read (and cached) by the route, read here leniently.
    const body = lenientJson(await c.req.text().catch(() => ""));
    const cart = typeof body.cart === "string" ? decodeCart(body.cart) : undefined;
    const answer = c.get("journalBody") as { duplicate?: unknown } | undefined;
    n += 1;
    list.push({
      n,
      received_at,
      status: c.res.status,
      session_hash: text(body.session_hash),
      order_id: text(body.order_id),
      cart_id: cart?.ok ? cart.cart.id : null,
      order_amount: body.order_amount ?? null,
      duplicate: answer?.duplicate === true,
      merchant_id: c.get("auth")?.merchant_id ?? c.get("merchantId") ?? null,
    });
  };
}

export const registerPurchaseModule: EmulatorModule = {
  name: "register-purchase",
  mount(app, ctx) {
    app.get("/__emulator/register-purchases", (c) => reply(c, { receipts: purchaseReceipts(ctx) }));
    app.post("/register-purchase", recordReceipts(ctx), requireBearer(ctx), async (c) => {
      const parsed = await readJson(c, registerPurchaseBody);
      if (!parsed.ok) return parsed.response;
      const input = parsed.value;
      const decoded = decodeCart(input.cart);
      if (!decoded.ok) return fail(c, 400, "bad_request", decoded.description);
      const cart = decoded.cart;
      // Other payment methods: the shopper pays the full price and gets the trade-in back as
      // cashback (public-docs-facts: Journey), so order_amount is the cart's total plus whatever
      // the merchant charges outside the cart (delivery, fees); never less.
      if (input.order_amount < cart.total) {
        return fail(
          c,
          400,
          "bad_request",
          `order_amount ${input.order_amount} is less than the cart total ${cart.total}: it is what the shopper paid (the cart total plus any delivery or fees), with no trade-in discount taken off.`,
        );
      }
      const merchantId = c.get("auth").merchant_id;

      const found = ctx.state.lookupSession(merchantId, input.session_hash);
      if (found.kind === "not_found") {
        return fail(c, 404, "not_found", "Unknown or expired session hash.");
      }
      if (found.kind === "gone") {
        return fail(
          c,
          410,
          "gone",
          "This session version was superseded; query the session again.",
        );
      }
      const hash = found.session.hash;

      // A repeat of the same purchase (same session, same cart) is answered again, not counted twice.
      const previous = ctx.state.findPurchase(hash, cart.id);
      if (previous) {
        return reply(c, { ...orderView(previous, ctx.clock), duplicate: true });
      }

      const item = ctx.state.latestTradeIn(merchantId, hash);
      if (!item || item.status === "cancelled") {
        return fail(c, 400, "bad_request", "The session has no trade-in item to apply.");
      }
      if (item.status === "used") {
        return fail(
          c,
          400,
          "bad_request",
          `Trade-in ${item.id} was already used by another purchase.`,
        );
      }
      if (ctx.state.isExpired(item)) {
        return fail(
          c,
          410,
          "gone",
          `The valuation of trade-in ${item.id} expired; value the device again.`,
        );
      }
      if (item.status !== "accepted") {
        return fail(c, 400, "bad_request", `Trade-in ${item.id} is ${item.status}, not accepted.`);
      }
      if (item.currency !== cart.currency) {
        return fail(
          c,
          400,
          "bad_request",
          `The trade-in is in ${item.currency} and the cart in ${cart.currency}.`,
        );
      }
      const merchant = ctx.state.getMerchant(merchantId);
      if (merchant && cart.total < merchant.minimums.tradein) {
        return fail(
          c,
          400,
          "bad_request",
          `The cart total ${cart.total} is below the minimum of ${merchant.minimums.tradein} for a trade-in.`,
        );
      }

      if (input.order_id && ctx.state.findOrder(merchantId, input.order_id)) {
        return fail(c, 400, "bad_request", `order_id ${input.order_id} belongs to another order.`);
      }

      const order = ctx.state.createOrder({
        merchant_id: merchantId,
        ...(input.order_id ? { order_id: input.order_id } : {}),
        cart_id: cart.id,
        status: "completed",
        amount: input.order_amount,
        currency: cart.currency,
        trade_in_discount: item.value,
        customer_id: input.customer_id ?? found.session.customer?.id ?? null,
        session_hash: hash,
        tradein_item_id: item.id,
        payment: "other",
        cart,
      });
      ctx.state.markTradeInUsed(item.id, order.id);
      ctx.state.recordPurchase(hash, cart.id, order.id);
      return reply(c, { ...orderView(order, ctx.clock), duplicate: false });
    });
  },
};
