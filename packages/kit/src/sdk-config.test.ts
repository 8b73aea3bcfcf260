import { describe, expect, it } from "vitest";
import { browserServiceConfiguration } from "./sdk-config.js";

// The demo shop's paths (lib/service-adapter/checkout-wiring.ts).
const routes = { callbacks: "/api/service", confirmation: "/checkout/confirmation" };

describe("browserServiceConfiguration", () => {
  it("takes the host's own paths for the callbacks and the confirmation page", () => {
    const config = browserServiceConfiguration(
      "https://shop.example/",
      { callbacks: "/shop/integrations/trade-in/", confirmation: "/order/thanks" },
      {},
    );
    expect(config.browserCallbackBase).toBe("https://shop.example/shop/integrations/trade-in");
    expect(config.confirmUrl).toBe("https://shop.example/order/thanks");
  });

  it("refuses a path that is not one (a full URL, a query), naming the route only", () => {
    const base = "https://shop.example";
    expect(() =>
      browserServiceConfiguration(base, { ...routes, confirmation: "https://evil.example/x" }, {}),
    ).toThrow(/Invalid shop routes for the service's SDK: confirmation$/);
    expect(() =>
      browserServiceConfiguration(base, { ...routes, callbacks: "/api?x=1" }, {}),
    ).toThrow(/callbacks/);
  });

  it("defaults to the emulator's seed and the shop's base URL", () => {
    expect(browserServiceConfiguration("http://localhost:3000", routes, {})).toEqual({
      merchantId: "m_demo",
      browserCallbackBase: "http://localhost:3000/api/service",
      confirmUrl: "http://localhost:3000/checkout/confirmation",
      products: "valuations+ep1",
      sdkUrl: "http://localhost:4010/assets/v1/main.js",
    });
  });

  it("builds every address from the environment, without doubled slashes", () => {
    const config = browserServiceConfiguration("https://shop.example/", routes, {
      SERVICE_ASSETS_URL: "https://assets.staging.example/sdk/",
      SERVICE_MERCHANT_ID: "m_live",
      SERVICE_PRODUCTS: "valuations",
    });
    expect(config).toEqual({
      merchantId: "m_live",
      browserCallbackBase: "https://shop.example/api/service",
      confirmUrl: "https://shop.example/checkout/confirmation",
      products: "valuations",
      sdkUrl: "https://assets.staging.example/sdk/v1/main.js",
    });
  });

  it("treats an empty variable as unset", () => {
    expect(
      browserServiceConfiguration("http://localhost:3000", routes, { SERVICE_MERCHANT_ID: "" })
        .merchantId,
    ).toBe("m_demo");
  });

  it("refuses a bad value, naming the variable only", () => {
    expect(() =>
      browserServiceConfiguration("http://localhost:3000", routes, {
        SERVICE_ASSETS_URL: "javascript:alert(1)",
      }),
    ).toThrow(/SERVICE_ASSETS_URL/);
    expect(() =>
      browserServiceConfiguration("http://localhost:3000", routes, { SERVICE_PRODUCTS: "ep1; x" }),
    ).toThrow(/SERVICE_PRODUCTS/);
  });

  it("has no demo value with NODE_ENV=production: the merchant id, assets and products are required", () => {
    expect(() =>
      browserServiceConfiguration("https://shop.example", routes, { NODE_ENV: "production" }),
    ).toThrow(/SERVICE_ASSETS_URL, SERVICE_MERCHANT_ID, SERVICE_PRODUCTS/);
    expect(
      browserServiceConfiguration("https://shop.example", routes, {
        NODE_ENV: "production",
        SERVICE_ASSETS_URL: "https://assets.service.example",
        SERVICE_MERCHANT_ID: "m_live",
        SERVICE_PRODUCTS: "valuations",
      }).merchantId,
    ).toBe("m_live");
  });

  it("adds the teaser selectors the host gives, trimmed, and only those", () => {
    const config = browserServiceConfiguration(
      "https://shop.example",
      routes,
      {},
      {
        bannerCssSelector: "  #hero .promo ",
        cartSummaryCssSelector: "aside[data-cart]",
        thankYouCssSelector: "",
      },
    );
    expect(config).toEqual({
      ...browserServiceConfiguration("https://shop.example", routes, {}),
      bannerCssSelector: "#hero .promo",
      cartSummaryCssSelector: "aside[data-cart]",
    });
    expect(Object.keys(config)).not.toContain("thankYouCssSelector");
    expect(Object.keys(config)).not.toContain("productWidgetCssSelector");
  });

  it("refuses a selector that is no one line of bounded length, or a key the contract does not name, naming the key only", () => {
    const at = (teasers: Record<string, string>) => () =>
      browserServiceConfiguration("https://shop.example", routes, {}, teasers);
    expect(at({ productWidgetCssSelector: "#a\n#b" })).toThrow(
      /Invalid teaser selectors for the service's SDK: productWidgetCssSelector$/,
    );
    expect(at({ thankYouCssSelector: `#${"x".repeat(500)}` })).toThrow(/: thankYouCssSelector$/);
    expect(at({ bannerSelector: "#hero" })).toThrow(/: bannerSelector$/);
    expect(at({ bannerCssSelector: "#x".repeat(250) })).not.toThrow();
  });
});
