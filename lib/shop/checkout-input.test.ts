import { describe, expect, it } from "vitest";
import { TEST_ADDRESS } from "@/test-support/checkout";
import { parseCheckoutForm } from "./checkout-input";
import { chargeTestCard, passesLuhn, TEST_CARDS } from "./test-card";

const address = TEST_ADDRESS;

function form(overrides: Record<string, string | undefined> = {}): FormData {
  const data = new FormData();
  const values: Record<string, string | undefined> = {
    email: "ada@example.com",
    ...Object.fromEntries(Object.entries(address).map(([k, v]) => [`billing_${k}`, v])),
    shipping_same: "on",
    shipping_method: "standard",
    payment_method: "card",
    card_number: TEST_CARDS.success,
    card_expiry: "12/39",
    card_cvc: "123",
    ...overrides,
  };
  for (const [key, value] of Object.entries(values)) if (value !== undefined) data.set(key, value);
  return data;
}

describe("checkout form validation", () => {
  it("accepts a complete form and copies billing to shipping", () => {
    const result = parseCheckoutForm(form());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.input.shipping).toEqual(address);
    expect(result.input.card?.number).toBe("4242424242424242");
  });

  it("keys errors by field name", () => {
    const result = parseCheckoutForm(
      form({ email: "nope", billing_given_name: " ", billing_country_code: "XX", card_cvc: "1" }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(
      ["billing_country_code", "billing_given_name", "card_cvc", "email"].sort(),
    );
    expect(result.errors.billing_given_name).toBe("Enter a first name.");
  });

  it("validates a separate shipping address", () => {
    const result = parseCheckoutForm(form({ shipping_same: undefined, shipping_city: "Cork" }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.shipping_given_name).toBeDefined();
    expect(result.errors.shipping_city).toBeUndefined();
  });

  it("rejects unknown shipping and payment methods and missing fields without throwing", () => {
    const result = parseCheckoutForm(new FormData());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.shipping_method).toBe("Choose a delivery method.");
    expect(result.errors.payment_method).toBe("Choose a payment method.");
    const bad = parseCheckoutForm(form({ shipping_method: "drone", payment_method: "cash" }));
    expect(bad.ok).toBe(false);
  });

  it("needs no card for the service's payment option", () => {
    const result = parseCheckoutForm(form({ payment_method: "service_pay", card_number: "" }));
    expect(result.ok).toBe(true);
  });

  it("rejects an expired card and a bad card number", () => {
    const result = parseCheckoutForm(form({ card_expiry: "01/20", card_number: "1234 5678" }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.card_expiry).toBe("This card has expired.");
    expect(result.errors.card_number).toBe("Enter a valid card number.");
  });
});

describe("test card gateway", () => {
  it("documents one card that succeeds and one that is declined", () => {
    expect(passesLuhn("4242424242424242")).toBe(true);
    expect(passesLuhn("4000000000000002")).toBe(true);
    expect(chargeTestCard(TEST_CARDS.success, 100).ok).toBe(true);
    expect(chargeTestCard(TEST_CARDS.declined, 100)).toEqual({ ok: false, reason: "declined" });
    expect(chargeTestCard("5555555555554444", 100)).toEqual({ ok: false, reason: "unknown_card" });
  });
});
