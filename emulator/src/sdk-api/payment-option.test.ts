import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Cart, Merchant, TradeInItem } from "../domain";
import { SEED } from "../state/seed";
import { paymentOptionDetails } from "./payment-option";

const merchant = SEED.merchants.find((m) => m.id === "m_demo") as Merchant;

function cart(total: number, currency = "EUR"): Cart {
  return { id: "c1", currency, items: [], price: total, tax: 0, total };
}

function tradein(value: number, currency = "EUR"): TradeInItem {
  return {
    id: "ti_1",
    merchant_id: "m_demo",
    session_hash: "ab",
    session_version: 1,
    status: "accepted",
    value,
    currency,
    device: { category: "phones", model_id: "m", brand: "B", name: "Phone" },
    condition: { answers: {}, factor: 1 },
    created_at: 0,
    valid_until: 1,
  };
}

const base = { merchant, products: "valuations+ep1", locale: "en" as const };

describe("payment option mode (contract: Payment option mode)", () => {
  it.each([
    [
      "page without ep1",
      { ...base, products: "valuations", tradein: tradein(1000), cart: cart(90000) },
      "unavailable",
      "unavailable",
    ],
    [
      "merchant without ep1",
      {
        ...base,
        merchant: { ...merchant, products: "valuations" as const },
        tradein: tradein(1000),
        cart: cart(90000),
      },
      "unavailable",
      "unavailable",
    ],
    [
      "no trade-in",
      { ...base, tradein: null, cart: cart(90000) },
      "tradein_missing",
      "tradein_missing",
    ],
    [
      "currencies differ",
      { ...base, tradein: tradein(1000, "GBP"), cart: cart(90000) },
      "tradein_invalid",
      "currency",
    ],
    [
      "cart under the trade-in minimum",
      { ...base, tradein: tradein(1000), cart: cart(4999) },
      "tradein_invalid",
      "cart_below_limit",
    ],
    [
      "offer larger than the cart",
      { ...base, tradein: tradein(100000), cart: cart(90000) },
      "tradein_invalid",
      "cart_below_limit",
    ],
    [
      "empty cart",
      { ...base, tradein: tradein(1000), cart: null },
      "tradein_invalid",
      "cart_below_limit",
    ],
    [
      "cart under the Service Pay minimum",
      { ...base, tradein: tradein(1000), cart: cart(19999) },
      "tradein_invalid",
      "other_ok",
    ],
    [
      "at the Service Pay minimum",
      { ...base, tradein: tradein(1000), cart: cart(20000) },
      "tradein_valid",
      "tradein_valid",
    ],
  ])("%s", (_, input, mode, template) => {
    const details = paymentOptionDetails(input);
    expect(details.mode).toBe(mode);
    expect(details.template_name).toBe(template);
  });

  it("data carries the raw values", () => {
    expect(
      paymentOptionDetails({ ...base, tradein: tradein(100000), cart: cart(90000) }).data,
    ).toEqual({
      valuation: 100000,
      tradein: "ti_1",
      minimum: 100000,
      tradein_currency: "EUR",
      cart_currency: "EUR",
    });
  });

  it("label is plain text; info and extra use only <br> and <strong>, in both languages", () => {
    const input = fc.record({
      products: fc.constantFrom("valuations", "valuations+ep1"),
      value: fc.integer({ min: 0, max: 500_000 }),
      total: fc.option(fc.integer({ min: 0, max: 500_000 })),
      tradeinCurrency: fc.constantFrom("EUR", "GBP"),
      cartCurrency: fc.constantFrom("EUR", "GBP"),
      hasTradeIn: fc.boolean(),
      locale: fc.constantFrom("en" as const, "es" as const),
    });
    fc.assert(
      fc.property(input, (i) => {
        const details = paymentOptionDetails({
          merchant,
          products: i.products,
          tradein: i.hasTradeIn ? tradein(i.value, i.tradeinCurrency) : null,
          cart: i.total === null ? null : cart(i.total, i.cartCurrency),
          locale: i.locale,
        });
        expect(details.label).not.toMatch(/[<>]/);
        for (const text of [details.info, details.extra ?? ""]) {
          const tags = [...text.matchAll(/<\/?([a-z]+)[^>]*>/g)].map((m) => m[1]);
          expect(tags.every((t) => t === "br" || t === "strong")).toBe(true);
        }
      }),
    );
  });
});
