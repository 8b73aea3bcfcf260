import type { Currency } from "./money";

export const SHIPPING_METHODS = [
  {
    id: "standard",
    name: "Standard delivery",
    detail: "3 to 5 working days",
    price: { EUR: 499, GBP: 449 },
  },
  {
    id: "express",
    name: "Express delivery",
    detail: "Next working day",
    price: { EUR: 1499, GBP: 1299 },
  },
] as const;

export type ShippingMethodId = (typeof SHIPPING_METHODS)[number]["id"];
export const SHIPPING_METHOD_IDS = SHIPPING_METHODS.map((m) => m.id) as [
  ShippingMethodId,
  ...ShippingMethodId[],
];

export function shippingMethod(id: ShippingMethodId) {
  const method = SHIPPING_METHODS.find((m) => m.id === id);
  if (!method) throw new Error(`Unknown shipping method ${id}`);
  return method;
}

export function shippingPrice(id: ShippingMethodId, currency: Currency): number {
  return shippingMethod(id).price[currency];
}

export function isShippingMethodId(value: string): value is ShippingMethodId {
  return (SHIPPING_METHOD_IDS as readonly string[]).includes(value);
}

/** The delivery the shop assumes before the shopper chose one (cart, product and purchase data). */
export const DEFAULT_SHIPPING_METHOD: ShippingMethodId = "standard";

/** A delivery method's name and price in a currency, as the "to pay" figures show it. */
export function deliveryShown(
  id: ShippingMethodId,
  currency: Currency,
): { name: string; price: number } {
  return { name: shippingMethod(id).name, price: shippingPrice(id, currency) };
}
