import "server-only";
import type { ShopperSource } from "@service-integration/kit";
import { db } from "../db";
import { CURRENCY, openCart, SHIPPING } from "../shop";
import { delivery, productUrl } from "./orders";
import { loadCheckout } from "./service-pay-store";

/** The callbacks' view of the shop (shop-ports.ts ShopperSource). */
export const miniShopperSource: ShopperSource = {
  async customer(customerId) {
    const row = db()
      .prepare("SELECT id, email, givenName, familyName FROM customers WHERE id = ?")
      .get(customerId) as
      | { id: string; email: string; givenName: string; familyName: string }
      | undefined;
    return row ? { ...row, address: null } : null;
  },
  async openCart(sessionId) {
    const cart = openCart(sessionId);
    if (!cart || cart.lines.length === 0) return null;
    return {
      id: cart.id,
      currency: CURRENCY,
      items: cart.lines.map((l) => ({
        productId: l.productId,
        name: l.name,
        description: l.description,
        url: productUrl(l.productId),
        quantity: l.quantity,
        price: l.price,
        tax: l.tax * l.quantity,
      })),
    };
  },
  async loadCheckout(cartId) {
    return loadCheckout(cartId);
  },
  shippingMethod: () => delivery(),
  defaultShippingMethod: SHIPPING.id,
};
