import "server-only";
import type { Db } from "@/lib/db/client";
import type { ShopperSource } from "@/lib/service/shop-ports";
import { ADDRESS_FIELDS, type Address } from "@/lib/shop/address";
import { loadCartWith } from "@/lib/shop/cart";
import { isCurrency } from "@/lib/shop/money";
import { isShippingMethodId, shippingMethod } from "@/lib/shop/shipping";
import { contractCartOf } from "./contract-cart";
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
      return cart && cart.lines.length > 0 ? contractCartOf(cart, shopBaseUrl) : null;
    },
    loadCheckout(cartId) {
      return createServicePayStore(db).transaction((tx) => tx.loadCheckout(cartId));
    },
    shippingMethod(id, currency) {
      const method = shippingMethod(isShippingMethodId(id) ? id : "standard");
      return {
        id: method.id,
        name: method.name,
        price: method.price[isCurrency(currency) ? currency : "EUR"],
      };
    },
    defaultShippingMethod: "standard",
  };
}
