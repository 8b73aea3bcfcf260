// State of the bare test merchant: per "shop" key (one per test, so tests run in parallel) a
// customer (null = anonymous, shopper_data answers 404) and a cart (null = empty cart).
import { createHash } from "node:crypto";
import type { Cart, Customer } from "../domain";

export type Shop = {
  customer: Customer | null;
  cart: Cart | null;
  addresses?: boolean;
  /** Careless-merchant mistakes of this shop's callbacks only (parallel tests stay apart). */
  careless?: string[];
  /** true: shopper_data's 200 may be cached for ten minutes (`Cache-Control: private,
   *  max-age=600`), as a careless shop's framework might send it; the SDK must ask every time. */
  cacheableShopperData?: boolean;
  /** true: the callbacks answer JSON only to a request asking for it (`Accept:
   *  application/json`) and the shop's HTML page otherwise, as a framework that picks its answer
   *  by the Accept header does; the SDK must ask for JSON. */
  negotiatesContent?: boolean;
};

export const TEST_MERCHANT_ID = "m_test";
export const TEST_USER_ID = "u_test_admin";

export function defaultShop(key: string): Shop {
  return {
    customer: {
      id: `cust-${key}`,
      email: `${key}@example.test`,
      given_name: "Test",
      family_name: "Shopper",
    },
    cart: cartOf(key, 79_860),
  };
}

/** A one-line cart of the given total (tax included), in cents. */
export function cartOf(key: string, total: number, currency = "EUR"): Cart {
  const tax = Math.round((total * 21) / 121);
  const price = total - tax;
  return {
    id: `cart-${key}`,
    currency,
    items: [
      {
        id: "sku-laptop",
        name: "Vertex Book 16",
        description: "Test product",
        url: "/products/vertex-book-16",
        quantity: 1,
        price,
        tax,
        total,
      },
    ],
    price,
    tax,
    total,
  };
}

/** The session hash the test merchant sends: stable per shop key, hex like an HMAC-SHA256. */
export function sessionHashOf(key: string): string {
  return createHash("sha256").update(`test-merchant-session:${key}`).digest("hex");
}
