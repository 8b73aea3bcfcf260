import { z } from "zod";
import { ADDRESS_FIELDS, type Address, addressSchema } from "./address";
import { CHECKOUT_PAYMENT_VALUES } from "./payment-methods";
import { SHIPPING_METHOD_IDS } from "./shipping";
import { normaliseCardNumber, passesLuhn } from "./test-card";
import { wellFormedString } from "./well-formed";

// Checkout form fields: email, billing_<Address field>, shipping_same, shipping_<Address field>,
// shipping_method, payment_method, card_number, card_expiry, card_cvc.

const cardSchema = z.object({
  card_number: wellFormedString({ error: "Enter the card number." })
    .transform(normaliseCardNumber)
    .refine(passesLuhn, "Enter a valid card number."),
  card_expiry: wellFormedString({ error: "Enter the expiry date." })
    .trim()
    .regex(/^(0[1-9]|1[0-2])\s*\/\s*\d{2}$/, "Enter the expiry date as MM/YY.")
    .refine((value) => {
      const [mm, yy] = value.split("/").map((s) => Number(s.trim()));
      const expiry = new Date(Date.UTC(2000 + (yy ?? 0), mm ?? 0, 1));
      return expiry.getTime() > Date.now();
    }, "This card has expired."),
  card_cvc: wellFormedString({ error: "Enter the security code." })
    .trim()
    .regex(/^\d{3,4}$/, "Enter the 3 or 4 digit security code."),
});

export interface CheckoutInput {
  email: string;
  billing: Address;
  shipping: Address;
  shippingMethod: (typeof SHIPPING_METHOD_IDS)[number];
  paymentMethod: (typeof CHECKOUT_PAYMENT_VALUES)[number];
  card?: { number: string; expiry: string; cvc: string };
}

export type FieldErrors = Record<string, string>;

export type ParsedCheckout =
  | { ok: true; input: CheckoutInput }
  | { ok: false; errors: FieldErrors };

function prefixed(form: FormData, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of ADDRESS_FIELDS) {
    const value = form.get(`${prefix}_${field}`);
    if (typeof value === "string") out[field] = value;
  }
  return out;
}

function collect(errors: FieldErrors, issues: z.core.$ZodIssue[], prefix = "") {
  for (const issue of issues) {
    const key = `${prefix}${issue.path.join("_")}`;
    errors[key] ??= issue.message;
  }
}

/** Validates the checkout form on the server; errors are keyed by form field name. */
export function parseCheckoutForm(form: FormData): ParsedCheckout {
  const errors: FieldErrors = {};
  const email = z
    .email("Enter an email address like name@example.com.")
    .max(200)
    .safeParse(String(form.get("email") ?? "").trim());
  if (!email.success) collect(errors, email.error.issues, "email");

  const billing = addressSchema.safeParse(prefixed(form, "billing"));
  if (!billing.success) collect(errors, billing.error.issues, "billing_");

  const sameAsBilling = form.get("shipping_same") === "on";
  const shipping = sameAsBilling ? billing : addressSchema.safeParse(prefixed(form, "shipping"));
  if (!sameAsBilling && !shipping.success) collect(errors, shipping.error.issues, "shipping_");

  const method = z
    .enum(SHIPPING_METHOD_IDS, { error: "Choose a delivery method." })
    .safeParse(form.get("shipping_method"));
  if (!method.success) errors.shipping_method = method.error.issues[0]?.message ?? "";

  const payment = z
    .enum(CHECKOUT_PAYMENT_VALUES, { error: "Choose a payment method." })
    .safeParse(form.get("payment_method"));
  if (!payment.success) errors.payment_method = payment.error.issues[0]?.message ?? "";

  let card: CheckoutInput["card"];
  if (payment.success && payment.data === "card") {
    const parsed = cardSchema.safeParse({
      card_number: form.get("card_number") ?? undefined,
      card_expiry: form.get("card_expiry") ?? undefined,
      card_cvc: form.get("card_cvc") ?? undefined,
    });
    if (parsed.success) {
      card = {
        number: parsed.data.card_number,
        expiry: parsed.data.card_expiry,
        cvc: parsed.data.card_cvc,
      };
    } else collect(errors, parsed.error.issues);
  }

  if (
    Object.keys(errors).length > 0 ||
    !email.success ||
    !billing.success ||
    !shipping.success ||
    !method.success ||
    !payment.success
  ) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    input: {
      email: email.data,
      billing: billing.data,
      shipping: shipping.data,
      shippingMethod: method.data,
      paymentMethod: payment.data,
      ...(card ? { card } : {}),
    },
  };
}

/** What the checkout form holds when the shopper pays with the service (JSON, zod-validated). */
export const serviceCheckoutSchema = z
  .object({
    email: z.email("Enter an email address like name@example.com.").max(200),
    billing: addressSchema,
    /** omitted: delivered to the billing address */
    shipping: addressSchema.optional(),
    shipping_method: z.enum(SHIPPING_METHOD_IDS, { error: "Choose a delivery method." }),
  })
  .transform((d) => ({
    email: d.email,
    billing: d.billing,
    shipping: d.shipping ?? d.billing,
    shippingMethod: d.shipping_method,
  }));

/**
 * Body of POST /api/service/pending-order: `cart_id` (optional; the cart the SDK was shown, so a
 * repeat after the cart became an order returns that order) and, optionally, the checkout
 * details; without them the details kept by POST /api/service/checkout are used.
 */
export const pendingOrderRequestSchema = z
  .looseObject({ cart_id: wellFormedString().min(1).max(100).optional() })
  .transform((body, ctx) => {
    const hasDetails = ["email", "billing", "shipping", "shipping_method"].some(
      (key) => body[key] !== undefined,
    );
    if (!hasDetails) return { cartId: body.cart_id, details: undefined };
    const details = serviceCheckoutSchema.safeParse(body);
    if (!details.success) {
      for (const issue of details.error.issues) ctx.addIssue({ ...issue, code: "custom" });
      return z.NEVER;
    }
    return { cartId: body.cart_id, details: details.data };
  });
