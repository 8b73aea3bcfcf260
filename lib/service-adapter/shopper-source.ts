import "server-only";
import type { ShopperSource } from "@service-integration/kit";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { ADDRESS_FIELDS, type Address } from "@/lib/shop/address";
import { loadCartWith } from "@/lib/shop/cart";
import { DEFAULT_SHIPPING_METHOD } from "@/lib/shop/shipping";
import { cartLinesOf, deliveryChargeOf } from "./contract-cart";
import { createServicePayStore } from "./service-pay-store";

/** The merchant endpoints' view of the shop (shop-ports.ts ShopperSource), in plain Prisma. */
export function createShopperSource(db: Db): ShopperSource {
  return {
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
          ? (Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, row.address?.[f] ?? ""])) as Address)
          : null,
      };
    },
    async openCart(sessionId, shopBaseUrl) {
      const cart = await loadCartWith(db, sessionId);
      return cart && cart.lines.length > 0 ? cartLinesOf(cart, shopBaseUrl) : null;
    },
    loadCheckout(cartId) {
      return createServicePayStore(db).transaction((tx) => tx.loadCheckout(cartId));
    },
    shippingMethod(id, currency) {
      return deliveryChargeOf(id, currency, getConfig().SHOP_BASE_URL);
    },
    defaultShippingMethod: DEFAULT_SHIPPING_METHOD,
  };
}
