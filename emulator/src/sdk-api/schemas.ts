// Input validation of the SDK routes. Money is integer cents; a decimal is rejected with 400
// (contract: Limits, Monetary values).
import { z } from "zod";

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

export const purchaseSchema = z
  .object({
    cart: cartSchema,
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

export const paymentOptionSchema = z.object({
  merchant_id: id,
  session_hash: hash.nullable(),
  products: z.string().max(100),
  locale: z.enum(["en", "es"]).catch("en"),
  purchase: purchaseSchema,
});

export const startPaymentSchema = z.object({
  merchant_id: id,
  session_hash: hash,
  method: z.enum(["card", "bank_transfer"]),
  purchase: purchaseSchema,
});
