import { z } from "zod";
import { type Address, addressSchema, type Cart, cartSchema } from "./cart.js";

/**
 * Purchase data: the merchant's answer to the SDK's `GET {merchant_callbacks_base}/purchase_data`
 * (contract: Resources › Purchase data, Merchant endpoints). Built fresh from the live cart on
 * every call ("called fresh each time the payment modal opens"); `purchase` is null for an empty
 * cart ("correct behaviour"). Amounts are integer cents (Merchant endpoints, rule 3).
 */

/** "Fields of the shipping method object: not shown." Ours: id, name and price in cents; extra
 *  fields a shop adds pass through. */
const shippingMethodSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  price: z.int().nonnegative(),
});

export const purchaseSchema = z.object({
  cart: cartSchema,
  billing: addressSchema,
  shipping: z.object({ address: addressSchema, method: shippingMethodSchema }),
  customer: z.object({ id: z.string().min(1), email: z.string().min(1) }),
});

export const purchaseDataSchema = z.object({ purchase: purchaseSchema.nullable() });

export type ShippingMethod = z.infer<typeof shippingMethodSchema>;
export type Purchase = z.infer<typeof purchaseSchema>;
export type PurchaseData = z.infer<typeof purchaseDataSchema>;

export interface PurchaseDataInput {
  /** The contract Cart (cart.ts buildCart), or null when there is no cart. */
  cart: Cart | null;
  billing: Address;
  shipping: { address: Address; method: ShippingMethod };
  customer: { id: string | number; email: string };
}

/** Throws (ZodError) when the shop's own data breaks the contract: that is a bug to fix, not a
 *  shape to send the SDK. */
export function buildPurchaseData(input: PurchaseDataInput | null): PurchaseData {
  if (!input?.cart || input.cart.items.length === 0) return { purchase: null };
  return purchaseDataSchema.parse({
    purchase: {
      cart: input.cart,
      billing: input.billing,
      shipping: { address: input.shipping.address, method: input.shipping.method },
      customer: { id: String(input.customer.id), email: input.customer.email },
    },
  });
}
