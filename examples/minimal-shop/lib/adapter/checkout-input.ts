import type { CheckoutDetails } from "@service-integration/kit";
import { addressSchema } from "@service-integration/kit";
import { z } from "zod";
import { SHIPPING } from "../shop";

// The checkout's details as the routes take them (payment-option.ts CheckoutDetailsBody) and as
// the card action reads the form: one schema for both.

const required = z.string().trim().min(1, "required").max(200);
const address = addressSchema.extend({
  given_name: required,
  family_name: required,
  address: required,
  city: required,
  postal_code: required,
  country_code: z.string().regex(/^[A-Z]{2}$/, "two capital letters"),
});

export const checkoutBodySchema = z
  .object({
    email: z.email().max(200),
    billing: address,
    shipping: address.optional(),
    shipping_method: z.literal(SHIPPING.id),
  })
  .transform(
    (d): CheckoutDetails => ({
      email: d.email,
      billing: d.billing,
      shipping: d.shipping ?? d.billing,
      shippingMethod: d.shipping_method,
    }),
  );

export const pendingOrderBodySchema = z.looseObject({
  cart_id: z.string().min(1).max(100).optional(),
});
