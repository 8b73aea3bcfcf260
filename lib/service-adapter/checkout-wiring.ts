// This shop's routes and checkout field names, as the kit's browser side reads them
// (ShopRoutes, CheckoutFormFields in shop-ports.ts). No server-only import: the checkout form, a
// client component, passes the field names and routes to the payment option.

import type { CheckoutFormFields, ShopRoutes } from "@service-integration/kit";
import { ADDRESS_FIELDS, type Address } from "@service-integration/kit";

/** Where this shop mounts the kit's handlers and its confirmation page (app/). */
export const shopRoutes: ShopRoutes = {
  callbacks: "/api/service",
  confirmation: "/checkout/confirmation",
  checkout: "/api/service/checkout",
  pendingOrder: "/api/service/pending-order",
};

const prefixed = (prefix: string) =>
  Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, `${prefix}_${field}`])) as Record<
    keyof Address,
    string
  >;

/** The checkout form's inputs (lib/ui/checkout-form.tsx; parsed by lib/shop/checkout-input.ts). */
export const checkoutFormFields: CheckoutFormFields = {
  email: "email",
  billing: prefixed("billing"),
  shipping: prefixed("shipping"),
  shippingSame: "shipping_same",
  shippingMethod: "shipping_method",
};
