import { z } from "zod";
import type { EmulatorModule } from "../context";
import { ORDER_STATUSES, type OrderStatus, UPDATE_TYPES, type UpdateType } from "../domain";
import { readJson } from "../http/body";
import { checkCart, decodeCart } from "../http/cart";
import { fail, reply } from "../http/errors";
import { requireBearer, requireScope } from "../http/middleware";
import { orderView } from "../http/views";

// POST /payments/orders/update and GET /payments/orders/ (contract, Service API).

/** The status an update moves the order to; cart_update keeps it. */
const STATUS_AFTER: Record<Exclude<UpdateType, "cart_update">, OrderStatus> = {
  shipped: "shipped",
  returned: "returned",
  partial_shipment: "partially_shipped",
  partial_return: "partially_returned",
};

export const updateBody = z.object({
  order_id: z.string().min(1, "order_id is required"),
  update_type: z.string({ error: "update_type is required" }),
  items: z
    .array(
      z.object({
        id: z.string().min(1),
        quantity: z.number().int("quantity must be an integer").min(1),
      }),
    )
    .optional(),
  /** Base64 of the JSON cart (as in register-purchase) or the cart object itself. */
  cart: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
});

export const listQuery = z.object({
  status: z.enum(ORDER_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

export const ordersModule: EmulatorModule = {
  name: "orders",
  mount(app, ctx) {
    const auth = requireBearer(ctx);

    app.post("/payments/orders/update", auth, requireScope("updates"), async (c) => {
      const parsed = await readJson(c, updateBody);
      if (!parsed.ok) return parsed.response;
      const input = parsed.value;
      if (!(UPDATE_TYPES as readonly string[]).includes(input.update_type)) {
        return fail(
          c,
          400,
          "bad_request",
          `update_type ${JSON.stringify(input.update_type)} is not allowed; use one of ${UPDATE_TYPES.join(", ")}.`,
        );
      }
      const updateType = input.update_type as UpdateType;
      const partial = updateType === "partial_shipment" || updateType === "partial_return";
      if (partial && (!input.items || input.items.length === 0)) {
        return fail(c, 400, "bad_request", `${updateType} needs a non-empty items list.`);
      }
      if (!partial && input.items) {
        return fail(
          c,
          400,
          "bad_request",
          `items are only accepted with partial_shipment and partial_return.`,
        );
      }
      if (updateType === "cart_update" && input.cart === undefined) {
        return fail(
          c,
          400,
          "bad_request",
          "cart_update needs cart (the cart, or Base64 of its JSON).",
        );
      }
      if (updateType !== "cart_update" && input.cart !== undefined) {
        return fail(c, 400, "bad_request", "cart is only accepted with cart_update.");
      }
      // The contract does not show the cart's form here: both are accepted (see README).
      const cart =
        input.cart === undefined
          ? undefined
          : typeof input.cart === "string"
            ? decodeCart(input.cart)
            : checkCart(input.cart);
      if (cart && !cart.ok) return fail(c, 400, "bad_request", cart.description);

      const order = ctx.state.findOrder(c.get("auth").merchant_id, input.order_id);
      if (!order) return fail(c, 404, "not_found", `Unknown order ${input.order_id}.`);

      if (input.items && order.cart) {
        for (const item of input.items) {
          const line = order.cart.items.find((l) => l.id === item.id);
          if (!line)
            return fail(c, 400, "bad_request", `Item ${item.id} is not in the order's cart.`);
          if (item.quantity > line.quantity) {
            return fail(
              c,
              400,
              "bad_request",
              `Item ${item.id}: quantity ${item.quantity} is more than the ${line.quantity} ordered.`,
            );
          }
        }
      }
      if (cart?.ok && cart.cart.currency !== order.currency) {
        return fail(
          c,
          400,
          "bad_request",
          `The order is in ${order.currency}; the cart may not change currency.`,
        );
      }

      const updated = ctx.state.applyOrderUpdate(order, {
        update_type: updateType,
        status: updateType === "cart_update" ? order.status : STATUS_AFTER[updateType],
        ...(input.items ? { items: input.items } : {}),
        ...(cart?.ok ? { cart: cart.cart } : {}),
      });
      return reply(c, { ...orderView(updated, ctx.clock), update_type: updateType });
    });

    app.get("/payments/orders/", auth, (c) => {
      const parsed = listQuery.safeParse({
        status: c.req.query("status") || undefined,
        limit: c.req.query("limit") || undefined,
      });
      if (!parsed.success) {
        return fail(
          c,
          400,
          "bad_request",
          `status must be one of ${ORDER_STATUSES.join(", ")}; limit an integer from 1 to 1000.`,
        );
      }
      const orders = ctx.state.listOrders(c.get("auth").merchant_id, {
        ...(parsed.data.status ? { status: parsed.data.status } : {}),
        limit: parsed.data.limit ?? 100,
      });
      return reply(c, { orders: orders.map((o) => orderView(o, ctx.clock)) });
    });
  },
};
