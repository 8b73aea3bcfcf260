import "server-only";
import type { OrderStatusRules } from "@service-integration/kit";
import type { ShopCallbacks } from "@service-integration/prisma-adapter";
import { getConfig } from "@/lib/config";
import type { Db, Tx } from "@/lib/db/client";
import { ADDRESS_FIELDS, type Address } from "@/lib/shop/address";
import { loadCartWith } from "@/lib/shop/cart";
import {
  canReach,
  canTransition,
  HELD_STATUS,
  isOrderStatus,
  PAID_OR_LATER,
} from "@/lib/shop/order-status";
import { CheckoutError, createOrderFromCart, type OrderWriter } from "@/lib/shop/orders";
import { DEFAULT_SHIPPING_METHOD, isShippingMethodId } from "@/lib/shop/shipping";
import { cartLinesOf, deliveryChargeOf } from "./contract-cart";

// What stays this shop's when @service-integration/prisma-adapter keeps the integration's own
// records (ShopCallbacks): its status names, its cart moved into its order, its order lines,
// its shoppers. `Tx` is the shop's transaction client (the adapter's transaction inside a
// Service Pay transaction).

/** The shop's order statuses, as the kit's webhook and order updates write them. */
export const shopOrderStatuses: OrderStatusRules = {
  // This shop keeps the contract's own three names for the statuses the service reports.
  forServiceStatus: {
    pending: "pending",
    payment_completed: "payment_completed",
    completed: "completed",
  },
  // The partial states mirror the update types (lib/shop/order-status.ts).
  afterUpdate: {
    shipped: "shipped",
    returned: "returned",
    partial_shipment: "partially_shipped",
    partial_return: "partially_returned",
    cart_update: null,
  },
  isKnown: isOrderStatus,
  canReach,
  canTransition,
  isPaidOrLater: (status) => PAID_OR_LATER.has(status),
  held: HELD_STATUS,
};

/**
 * The shop's callbacks over its models; `db` serves the shopper source's reads. `writer`: the
 * adapter's writer of order history these callbacks are given to (asked when an order is
 * created, so the adapter can be made from them), so a Service Pay order's discounts line has
 * the same one writer as every other line.
 */
export function shopCallbacks(db: Db, writer: () => OrderWriter): ShopCallbacks<Tx> {
  return {
    statuses: shopOrderStatuses,

    async openCartId(tx, sessionId) {
      // The newest open cart, if it has lines: one raw statement, asked by every cart page view
      // (servicePaymentOpen) where the whole cart was read again.
      const [cart] = await tx.$queryRaw<{ id: string; lines: number | bigint }[]>`
        SELECT c."id" AS "id",
          CAST((SELECT COUNT(*) FROM "CartItem" i WHERE i."cartId" = c."id") AS INTEGER) AS "lines"
        FROM "Cart" c
        WHERE c."sessionId" = ${sessionId} AND c."checkedOutAt" IS NULL
        ORDER BY c."createdAt" DESC
        LIMIT 1`;
      return cart && Number(cart.lines) > 0 ? cart.id : null;
    },

    async createOrder(tx, { sessionId, customerId, details, shopBaseUrl, columns }) {
      const { shippingMethod } = details;
      if (!isShippingMethodId(shippingMethod)) return null;
      // The kit writes only statuses it got from this shop's rules (shopOrderStatuses).
      if (!isOrderStatus(columns.status))
        throw new Error(`not a status of this shop: ${columns.status}`);
      const { valuationState, valuationItemId, valuationValue, valuationCurrency, valuationNote } =
        columns;
      try {
        // No note: the adapter writes the order's first history line.
        const order = await createOrderFromCart(tx, writer(), {
          sessionId,
          customerId,
          input: { ...details, shippingMethod, paymentMethod: "service_pay" },
          shopBaseUrl,
          status: columns.status,
          valuation: {
            valuationState,
            valuationItemId,
            valuationValue,
            valuationCurrency,
            valuationNote,
          },
        });
        return order.id;
      } catch (error) {
        if (error instanceof CheckoutError) return null;
        throw error;
      }
    },

    // A guest's pending Service Pay order nobody paid (the kit's sweep, pruneAbandonedOrders):
    // its lines and discounts go with it, the cart's lines and codes with the cart (onDelete:
    // Cascade); the addresses are the order's own (written for it by createOrderFromCart).
    async dropOrder(tx, { id, cartId }) {
      const addresses = { billingAddressId: true, shippingAddressId: true } as const;
      const gone = await tx.order.delete({ where: { id }, select: addresses });
      const ids = [gone.billingAddressId, gone.shippingAddressId];
      await tx.address.deleteMany({ where: { id: { in: ids } } });
      await tx.cart.deleteMany({ where: { id: cartId } });
    },

    async placedOrder(tx, order) {
      const row = await tx.order.findUniqueOrThrow({
        where: { id: order.id },
        select: { shippingMethod: true, items: true, discounts: true },
      });
      return {
        // The discounts fixed at checkout (OrderDiscount: `code` holds the contract id).
        discounts: row.discounts.map(({ code, name, total }) => ({ id: code, name, total })),
        items: row.items.map(({ productId, name, description, url, quantity, price, tax }) => ({
          productId,
          name,
          description,
          url,
          quantity,
          price,
          tax,
        })),
        delivery: deliveryChargeOf(
          row.shippingMethod,
          order.currency,
          getConfig().SHOP_BASE_URL,
          order.shippingPrice,
        ),
      };
    },

    shopper: {
      async customer(customerId) {
        const row = await db.customer.findUnique({
          where: { id: customerId },
          include: { address: true },
        });
        if (!row) return null;
        return {
          id: row.id,
          email: row.email,
          givenName: row.given_name,
          familyName: row.family_name,
          address: row.address
            ? (Object.fromEntries(
                ADDRESS_FIELDS.map((f) => [f, row.address?.[f] ?? ""]),
              ) as Address)
            : null,
        };
      },
      async openCart(sessionId, shopBaseUrl) {
        const cart = await loadCartWith(db, sessionId);
        return cart && cart.lines.length > 0 ? cartLinesOf(cart, shopBaseUrl) : null;
      },
      shippingMethod: (id, currency) => deliveryChargeOf(id, currency, getConfig().SHOP_BASE_URL),
      defaultShippingMethod: DEFAULT_SHIPPING_METHOD,
    },
  };
}
