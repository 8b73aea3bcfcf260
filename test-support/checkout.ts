import type { CheckoutInput } from "@/lib/shop/checkout-input";

/** Test-only: the shopper address the shop's unit tests fill in. */
export const TEST_ADDRESS = {
  given_name: "Ada",
  family_name: "Lovelace",
  phone: "+353 1 555 0100",
  address: "1 Main Street",
  city: "Dublin",
  state: "",
  country_code: "IE",
  postal_code: "D02 X285",
};

/** Test-only: a valid card checkout paying with `card` (spaces allowed, as printed). */
export function cardCheckoutInput(card: string, shipping = TEST_ADDRESS): CheckoutInput {
  return {
    email: "ada@example.com",
    billing: TEST_ADDRESS,
    shipping,
    shippingMethod: "express",
    paymentMethod: "card",
    card: { number: card.replace(/ /g, ""), expiry: "12/39", cvc: "123" },
  };
}
