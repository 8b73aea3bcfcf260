import {
  ADDRESS_FIELDS,
  type Address,
  addressSchema,
  type CheckoutDetails,
  type CheckoutFormFields,
  type ShopRoutes,
} from "@service-integration/kit";
import { z } from "zod";

// Where this shop mounts the kit's handlers, what its checkout form calls its inputs, and the
// checkout's details as the routes and the card action take them. No server-only import: the
// checkout form (a client component) passes the routes and fields to the payment option.

export const routes: ShopRoutes = {
  callbacks: "/api/service",
  confirmation: "/kasse/bestaetigung",
  checkout: "/api/service/checkout",
  pendingOrder: "/api/service/pending-order",
};

const named = (prefix: string) =>
  Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, `${prefix}_${f}`])) as Record<
    keyof Address,
    string
  >;

export const formFields: CheckoutFormFields = {
  email: "email",
  billing: named("billing"),
  shipping: named("shipping"),
  shippingSame: "shipping_same",
  shippingMethod: "shipping_method",
};

const required = z.string().trim().min(1, "required").max(200);
const address = addressSchema.extend({
  given_name: required,
  family_name: required,
  address: required,
  city: required,
  postal_code: required,
  country_code: z.string().regex(/^[A-Z]{2}$/, "two capital letters"),
});

/** The body of the payment option's checkout routes (the kit's CheckoutDetailsBody). */
export const checkoutBodySchema = z
  .object({
    email: z.email().max(200),
    billing: address,
    shipping: address.optional(),
    shipping_method: z.literal("standard"),
  })
  .transform(
    (d): CheckoutDetails => ({
      email: d.email,
      billing: d.billing,
      shipping: d.shipping ?? d.billing,
      shippingMethod: d.shipping_method,
    }),
  );
