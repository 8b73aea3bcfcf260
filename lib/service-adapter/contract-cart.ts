import "server-only";
import type { ShopCartLines } from "@service-integration/kit";
import { type Cart, cartOfLines, type DeliveryCharge } from "@service-integration/kit";
import type { CartView } from "@/lib/shop/cart-view";
import { productUrl } from "@/lib/shop/catalog";
import { isCurrency } from "@/lib/shop/money";
import { DEFAULT_SHIPPING_METHOD, isShippingMethodId, shippingMethod } from "@/lib/shop/shipping";

/** The shop's priced cart as the lines of a contract Cart (contract: Resources › Cart item) and
 *  its promotion codes as the Cart's discounts (contract: Resources › Discount). */
export function cartLinesOf(cart: CartView, shopBaseUrl: string): ShopCartLines {
  return {
    id: cart.id,
    currency: cart.currency,
    discounts: cart.discounts.map(({ id, name, total }) => ({ id, name, total })),
    items: cart.lines.map((line) => ({
      productId: line.productId,
      name: line.name,
      description: line.description,
      url: productUrl(shopBaseUrl, line.slug),
      quantity: line.quantity,
      price: line.price,
      tax: line.tax,
    })),
  };
}

/** The contract Cart of the shop's priced cart, its delivery a line of its own. */
export function contractCartOf(
  cart: CartView,
  shopBaseUrl: string,
  delivery: DeliveryCharge | null,
): Cart {
  return cartOfLines({ ...cartLinesOf(cart, shopBaseUrl), delivery });
}

/**
 * A delivery method as the service's Cart carries it (packages/kit/src/cart.ts deliveryLine). The
 * shop's delivery prices are flat amounts with VAT included that the shop does not itemise, so
 * the line's tax is 0 and the Cart's `tax` stays the tax the shop records
 * (docs/decisions/delivery-in-the-cart.md). `price` defaults to the method's price in the
 * currency; a placed order passes what it charged.
 */
export function deliveryChargeOf(
  methodId: string,
  currency: string,
  shopBaseUrl: string,
  price?: number,
): DeliveryCharge {
  const method = shippingMethod(isShippingMethodId(methodId) ? methodId : DEFAULT_SHIPPING_METHOD);
  return {
    id: method.id,
    name: method.name,
    price: price ?? method.price[isCurrency(currency) ? currency : "EUR"],
    url: new URL("/", shopBaseUrl).toString(),
  };
}
