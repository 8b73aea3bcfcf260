// The payment option details of `paymentOptionDetailsFor('ep1')` (contract: Payment option
// details, Payment option mode). Computed on the service side from the merchant's products, the
// session's trade-in, both currencies, the cart and the merchant's minimums.

import type { PaymentOptionDetails } from "../../sdk/wire";
import type { Cart, Cents, Currency, Merchant, TradeInItem } from "../domain";

export type Locale = "en" | "es";

export type PaymentOptionInput = {
  merchant: Merchant;
  /** `serviceConfiguration.products` as the page configured it. */
  products: string;
  /** The session's accepted, unexpired trade-in, if any. */
  tradein: TradeInItem | null;
  cart: Cart | null;
  locale: Locale;
};

function hasEp1(products: string): boolean {
  return products.split(/[+,\s]+/).includes("ep1");
}

function money(cents: Cents, currency: Currency, locale: Locale): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);
}

/**
 * Decision order (first match wins):
 * 1. `ep1` missing from the page's products or the merchant's → unavailable.
 * 2. no accepted, unexpired trade-in → tradein_missing (an expired one needs a new valuation).
 * 3. trade-in currency ≠ cart currency → tradein_invalid / currency.
 * 4. cart total below the merchant's trade-in minimum, or below the trade-in value (the discount
 *    would exceed the order) → tradein_invalid / cart_below_limit; `minimum` = the larger.
 * 5. cart total below the merchant's Service Pay minimum → tradein_invalid / other_ok.
 * 6. otherwise tradein_valid.
 */
export function paymentOptionDetails(input: PaymentOptionInput): PaymentOptionDetails {
  const { merchant, tradein, cart, locale } = input;
  const es = locale === "es";
  if (!hasEp1(input.products) || !hasEp1(merchant.products)) {
    return {
      mode: "unavailable",
      template_name: "unavailable",
      label: es ? "Pagar con Service" : "Pay with Service",
      info: es ? "Service Pay no está disponible." : "Service Pay is not available.",
    };
  }
  const label = es ? "Pagar con Service" : "Pay with Service";
  if (!tradein) {
    return {
      mode: "tradein_missing",
      template_name: "tradein_missing",
      label,
      info: es
        ? "Calcula el valor de tu dispositivo usado y descuéntalo <strong>al momento</strong>."
        : "Value your used device and take it off this order <strong>right away</strong>.",
      extra: es
        ? "Al elegir esta opción se abre la tasación."
        : "Choosing this option opens the valuation.",
      data: {
        valuation: null,
        tradein: null,
        minimum: merchant.minimums.tradein,
        tradein_currency: null,
        cart_currency: cart?.currency ?? null,
      },
    };
  }
  const total = cart?.total ?? 0;
  const cartCurrency = cart?.currency ?? null;
  const value = money(tradein.value, tradein.currency, locale);
  const data = (minimum: Cents | null) => ({
    valuation: tradein.value,
    tradein: tradein.id,
    minimum,
    tradein_currency: tradein.currency,
    cart_currency: cartCurrency,
  });
  if (cartCurrency !== null && cartCurrency !== tradein.currency) {
    return {
      mode: "tradein_invalid",
      template_name: "currency",
      label,
      info: es
        ? `Tu oferta está en <strong>${tradein.currency}</strong> y tu carrito en <strong>${cartCurrency}</strong>.`
        : `Your offer is in <strong>${tradein.currency}</strong> and your cart is in <strong>${cartCurrency}</strong>.`,
      extra: es
        ? "Repite la tasación en la moneda de la tienda."
        : "Value your device again in the shop's currency.",
      data: data(null),
    };
  }
  const belowLimit = Math.max(merchant.minimums.tradein, tradein.value);
  if (total < belowLimit) {
    const minimum = money(belowLimit, tradein.currency, locale);
    return {
      mode: "tradein_invalid",
      template_name: "cart_below_limit",
      label,
      info: es
        ? `Para usar tu oferta de ${value} el carrito debe sumar al menos <strong>${minimum}</strong>.`
        : `To use your ${value} offer your cart must total at least <strong>${minimum}</strong>.`,
      data: data(belowLimit),
    };
  }
  if (total < merchant.minimums.ep1) {
    const minimum = money(merchant.minimums.ep1, tradein.currency, locale);
    return {
      mode: "tradein_invalid",
      template_name: "other_ok",
      label,
      info: es
        ? `Service Pay necesita un carrito de al menos <strong>${minimum}</strong>.`
        : `Service Pay needs a cart of at least <strong>${minimum}</strong>.`,
      extra: es
        ? `Paga con otro método y recibirás ${value} por tu dispositivo.`
        : `Pay with another method and you still get ${value} for your device.`,
      data: data(merchant.minimums.ep1),
    };
  }
  const left = money(total - tradein.value, tradein.currency, locale);
  return {
    mode: "tradein_valid",
    template_name: "tradein_valid",
    label,
    info: es
      ? `Se descuentan <strong>${value}</strong> por tu dispositivo.<br>Pagas ${left}.`
      : `<strong>${value}</strong> off for your device.<br>You pay ${left}.`,
    extra: es
      ? "Elige cómo pagar el resto en la ventana de pago."
      : "Choose how to pay the rest in the payment window.",
    data: data(merchant.minimums.ep1),
  };
}
