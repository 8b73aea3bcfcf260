import "server-only";
import { type Cart, cartOfLines } from "@/lib/service/cart";
import type { CartView } from "@/lib/shop/cart-view";
import { productUrl } from "@/lib/shop/catalog";

/** The contract Cart of the shop's priced cart (contract: Resources › Cart, Cart item). */
export function contractCartOf(cart: CartView, shopBaseUrl: string): Cart {
  return cartOfLines({
    id: cart.id,
    currency: cart.currency,
    items: cart.lines.map((line) => ({
      productId: line.productId,
      name: line.name,
      description: line.description,
      url: productUrl(shopBaseUrl, line.slug),
      quantity: line.quantity,
      price: line.price,
      tax: line.tax,
    })),
  });
}
