import { z } from "zod";

/**
 * Shopper data: the merchant's answer to the SDK's `GET {merchant_callbacks_base}/shopper_data`
 * (contract: Resources › Shopper data, Merchant endpoints). Pure: the route passes the logged-in
 * customer and the session hash it computed (session-hash.ts) for this request.
 */

const shopperCustomerSchema = z.object({
  id: z.string().min(1),
  email: z.string().min(1),
  given_name: z.string(),
  family_name: z.string(),
});

export const shopperDataSchema = z.object({
  customer: shopperCustomerSchema,
  /** The session hash (HMAC-SHA256 hex); `session_hash_token` and `session_hash` name the same
   *  value (public-docs-facts: Sessions). Never the raw session id. */
  session_hash_token: z.string().regex(/^[0-9a-f]{64}$/, "must be a lowercase hex HMAC-SHA256"),
});

export type ShopperData = z.infer<typeof shopperDataSchema>;

/** The 404 body when no customer is logged in (contract: Errors by condition, shopper_data). */
export const SHOPPER_NOT_FOUND = {
  error: "not_found",
  error_description: "No customer is logged in for this session.",
} as const;

export function buildShopperData(input: {
  customer: { id: string | number; email: string; givenName: string; familyName: string };
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
