import type { CheckoutFormFields, ShopRoutes } from "@service-integration/kit";
import { ADDRESS_FIELDS, type Address } from "@service-integration/kit";

// Where this shop mounts the kit's handlers and what its checkout form calls its inputs.
// No server-only import: the checkout form (a client component) passes both to the option.

export const miniRoutes: ShopRoutes = {
  callbacks: "/api/service",
  confirmation: "/checkout/confirmation",
  checkout: "/api/service/checkout",
  pendingOrder: "/api/service/pending-order",
};

const named = (prefix: string) =>
  Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, `${prefix}_${f}`])) as Record<
    keyof Address,
    string
  >;

export const miniFormFields: CheckoutFormFields = {
  email: "email",
  billing: named("billing"),
  shipping: named("shipping"),
  shippingSame: "shipping_same",
  shippingMethod: "shipping_method",
};
