// Input validation of the SDK routes. Money is integer cents; a decimal is rejected with 400
// (contract: Limits, Monetary values), also when written `15000.00` (readJson reads the text).
import { z } from "zod";
import { checkCart, cartSchema as contractCartSchema } from "../http/cart";

const cents = z.number().int("amounts are integer cents").nonnegative();
const id = z.string().min(1).max(200);

export const customerSchema = z.object({
  id,
  email: z.string().max(320).optional(),
  given_name: z.string().max(200).optional(),
  family_name: z.string().max(200).optional(),
});

export const cartSchema = z.object({
  id,
  currency: z.string().regex(/^[A-Z]{3}$/, "currency is an ISO 4217 code"),
  items: z
    .array(
      z.object({
        id,
        name: z.string().max(500),
        description: z.string().max(5000).default(""),
        url: z.string().max(2000).default(""),
        quantity: z.number().int().positive(),
        price: cents,
        tax: cents,
        total: cents,
      }),
    )
    .max(500),
  price: cents,
  tax: cents,
  discounts: z.array(z.object({ id, name: z.string().max(500), total: cents })).optional(),
  total: cents,
});

/** The contract's Cart with its arithmetic, as register-purchase checks it (http/cart.ts). */
const contractCart = contractCartSchema.superRefine((value, issues) => {
  const checked = checkCart(value);
  if (!checked.ok) issues.addIssue({ code: "custom", message: checked.description });
});

const text = (max: number) => z.string().max(max);
const required = (max: number) => z.string().trim().min(1, "is required").max(max);

/** Contract: Address, all strings; a party and a place to send it to are required. */
const addressSchema = z.object({
  given_name: required(200),
  family_name: required(200),
  phone: text(50),
  address: required(500),
  city: required(200),
  state: text(200),
  country_code: z.string().regex(/^[A-Z]{2}$/, "is an ISO 3166-1 alpha-2 code such as ES"),
  postal_code: required(20),
});

/**
 * Purchase data as a payment needs it (contract: Purchase data): cart, billing, shipping
 * (address and method) and customer, with the cart's arithmetic. The same rules as
 * register-purchase, so Service Pay cannot take a purchase the other path would refuse.
 */
export const paymentPurchaseSchema = z.object({
  cart: contractCart,
  billing: addressSchema,
  shipping: z.object({ address: addressSchema, method: z.looseObject({}) }),
  customer: z.object({ id, email: required(320) }),
});

/** For the payment option's details the cart alone matters (the shopper may not have given
 *  the addresses yet); it is checked as strictly. */
export const purchaseSchema = z
  .object({
    cart: contractCart,
    billing: z.unknown().optional(),
    shipping: z.unknown().optional(),
    customer: z.object({ id, email: z.string().max(320).optional() }).optional(),
  })
  .nullable();

const hash = z.string().regex(/^[0-9a-f]{16,128}$/i, "session_hash is a hex HMAC");

export const initSchema = z.object({
  merchant_id: id,
  session_hash: hash.nullable(),
  customer: customerSchema.nullable(),
});

export const valuationSchema = z.object({
  merchant_id: id,
  session_hash: hash,
  model_id: id,
  answers: z.record(z.string().max(100), z.string().max(100)),
});

export const sessionRefSchema = z.object({ merchant_id: id, session_hash: hash });

const paymentOptionBase = {
  merchant_id: id,
  session_hash: hash.nullable(),
  products: z.string().max(100),
  locale: z.enum(["en", "es"]).catch("en"),
};

/** `purpose: "payment"` (the payment modal opening) checks the purchase as a payment does. */
export const paymentOptionSchema = z
  .object({
    ...paymentOptionBase,
    purpose: z.enum(["details", "payment"]).default("details"),
    purchase: z.unknown(),
  })
  .transform((value, issues) => {
    const schema = value.purpose === "payment" ? paymentPurchaseSchema.nullable() : purchaseSchema;
    const purchase = schema.safeParse(value.purchase);
    if (purchase.success) return { ...value, purchase: purchase.data };
    for (const issue of purchase.error.issues) {
      issues.addIssue({
        code: "custom",
        message: issue.message,
        path: ["purchase", ...issue.path],
      });
    }
    return z.NEVER;
  });

export const startPaymentSchema = z.object({
  merchant_id: id,
  session_hash: hash,
  method: z.enum(["card", "bank_transfer"]),
  purchase: paymentPurchaseSchema,
});
