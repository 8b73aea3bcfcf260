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
  /** The shop's delivery method id (CheckoutDetails.shippingMethod). */
  id: z.string().min(1),
  /** Its name as the shopper sees it. */
  name: z.string(),
  /** Its price in the cart's currency, integer cents. */
  price: z.int().nonnegative(),
});

/** The contract's `purchase` object (Resources › Purchase data): the cart, the billing party,
 *  the delivery and the customer. */
export const purchaseSchema = z.object({
  /** The contract Cart, its totals checked (cart.ts). */
  cart: cartSchema,
  /** The billing party's Address. */
  billing: addressSchema,
  /** The delivery: its Address and its method. */
  shipping: z.object({
    /** Where the order goes. */
    address: addressSchema,
    /** The delivery method charged (a delivery line of the cart too). */
    method: shippingMethodSchema,
  }),
  /** The customer: their id in the shop and their e-mail. */
  customer: z.object({
    /** The customer's id in the shop (text). */
    id: z.string().min(1),
    /** Their e-mail. */
    email: z.string().min(1),
  }),
});

/** The whole purchase_data answer: `purchase`, null when the cart is empty. */
export const purchaseDataSchema = z.object({
  /** The purchase; null when the cart is empty ("correct behaviour"). */
  purchase: purchaseSchema.nullable(),
});

/** Purchase data's shipping method (id, name, price in cents; a shop's extra fields pass). */
export type ShippingMethod = z.infer<typeof shippingMethodSchema>;
/** The contract's `purchase` object. */
export type Purchase = z.infer<typeof purchaseSchema>;
/** The purchase_data answer. */
export type PurchaseData = z.infer<typeof purchaseDataSchema>;

/** What buildPurchaseData takes: the shop's cart, addresses, delivery and customer. */
export interface PurchaseDataInput {
  /** The contract Cart (cart.ts buildCart), or null when there is no cart. */
  cart: Cart | null;
  /** The billing party's Address. */
  billing: Address;
  /** The delivery: its Address and method. */
  shipping: {
    /** Where the order goes. */
    address: Address;
    /** The delivery method (price in integer cents). */
    method: ShippingMethod;
  };
  /** The signed-in customer. */
  customer: {
    /** Their id in the shop (a number is sent as text). */
    id: string | number;
    /** Their e-mail. */
    email: string;
  };
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
