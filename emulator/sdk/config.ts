// Reads `window.serviceConfiguration` (contract: Front-end SDK, configuration object).

export type TeaserType = "banner" | "product-widget" | "cart-summary" | "thank-you";

export type ServiceConfiguration = {
  merchantId: string;
  browserCallbackBase: string;
  confirmUrl: string;
  products: string;
  selectors: Partial<Record<TeaserType, string>>;
};

type RawConfiguration = Partial<Record<string, unknown>>;

declare global {
  interface Window {
    serviceConfiguration?: RawConfiguration;
  }
}

function text(raw: RawConfiguration, key: string): string | undefined {
  const value = raw[key];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

export function readConfiguration(): ServiceConfiguration {
  const raw = window.serviceConfiguration ?? {};
  const merchantId = text(raw, "merchantId");
  const browserCallbackBase = text(raw, "browserCallbackBase");
  const confirmUrl = text(raw, "confirmUrl");
  if (!merchantId || !browserCallbackBase || !confirmUrl) {
    throw new Error(
      "window.serviceConfiguration needs merchantId, browserCallbackBase and confirmUrl",
    );
  }
  const selectors: Partial<Record<TeaserType, string>> = {};
  const keys: [TeaserType, string][] = [
    ["banner", "bannerCssSelector"],
    ["product-widget", "productWidgetCssSelector"],
    ["cart-summary", "cartSummaryCssSelector"],
    ["thank-you", "thankYouCssSelector"],
  ];
  for (const [type, key] of keys) {
    const selector = text(raw, key);
    if (selector) selectors[type] = selector;
  }
  return {
    merchantId,
    browserCallbackBase: browserCallbackBase.replace(/\/+$/, ""),
    confirmUrl,
    // Contract: products defaults to `valuations`; `valuations+ep1` enables Service Pay.
    products: text(raw, "products") ?? "valuations",
    selectors,
  };
}

export function hasProduct(products: string, product: string): boolean {
  return products.split(/[+,\s]+/).includes(product);
}
