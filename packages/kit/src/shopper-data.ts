import { z } from "zod";

/**
 * Shopper data: the merchant's answer to the SDK's `GET {merchant_callbacks_base}/shopper_data`
 * (contract: Resources › Shopper data, Merchant endpoints). Pure: the route passes the logged-in
 * customer and the session hash it computed (session-hash.ts) for this request.
 */

const shopperCustomerSchema = z.object({
  /** The customer's id in the shop (text). */
  id: z.string().min(1),
  /** Their e-mail. */
  email: z.string().min(1),
  /** Their given name. */
  given_name: z.string(),
  /** Their family name. */
  family_name: z.string(),
});

/** The shopper_data answer (contract: Resources › Shopper data). */
export const shopperDataSchema = z.object({
  /** The signed-in customer. */
  customer: shopperCustomerSchema,
  /** The session hash (HMAC-SHA256 hex); `session_hash_token` and `session_hash` name the same
   *  value (public-docs-facts: Sessions). Never the raw session id. */
  session_hash_token: z.string().regex(/^[0-9a-f]{64}$/, "must be a lowercase hex HMAC-SHA256"),
});

/** The shopper_data answer: the customer and the session hash. */
export type ShopperData = z.infer<typeof shopperDataSchema>;

/** The 404 body when no customer is logged in (contract: Errors by condition, shopper_data). */
export const SHOPPER_NOT_FOUND = {
  /** The contract's error code. */
  error: "not_found",
  /** The reason, in words. */
  error_description: "No customer is logged in for this session.",
} as const;

/** The shopper_data answer for the signed-in customer and the session hash computed for this
 *  request; throws (ZodError) when they break the contract (a bug, never sent). */
export function buildShopperData(input: {
  /** The signed-in customer (a number id is sent as text). */
  customer: {
    /** Their id in the shop. */
    id: string | number;
    /** Their e-mail. */
    email: string;
    /** Their given name. */
    givenName: string;
    /** Their family name. */
    familyName: string;
  };
  /** The session hash (HMAC-SHA256 hex) of the shopper's session. */
  sessionHash: string;
}): ShopperData {
  return shopperDataSchema.parse({
    customer: {
      id: String(input.customer.id),
      email: input.customer.email,
      given_name: input.customer.givenName,
      family_name: input.customer.familyName,
    },
    session_hash_token: input.sessionHash,
  });
}
