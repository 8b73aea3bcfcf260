import { describe, expect, it } from "vitest";
import { browserServiceConfiguration } from "./sdk-config";

describe("browserServiceConfiguration", () => {
  it("defaults to the emulator's seed and the shop's base URL", () => {
    expect(browserServiceConfiguration("http://localhost:3000", {})).toEqual({
      merchantId: "m_demo",
      browserCallbackBase: "http://localhost:3000/api/service",
      confirmUrl: "http://localhost:3000/checkout/confirmation",
      products: "valuations+ep1",
      sdkUrl: "http://localhost:4010/assets/v1/main.js",
    });
  });

  it("builds every address from the environment, without doubled slashes", () => {
    const config = browserServiceConfiguration("https://shop.example/", {
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
      browserServiceConfiguration("http://localhost:3000", { SERVICE_MERCHANT_ID: "" }).merchantId,
    ).toBe("m_demo");
  });

  it("refuses a bad value, naming the variable only", () => {
    expect(() =>
      browserServiceConfiguration("http://localhost:3000", {
        SERVICE_ASSETS_URL: "javascript:alert(1)",
      }),
    ).toThrow(/SERVICE_ASSETS_URL/);
    expect(() =>
      browserServiceConfiguration("http://localhost:3000", { SERVICE_PRODUCTS: "ep1; x" }),
    ).toThrow(/SERVICE_PRODUCTS/);
  });

  it("has no demo value with NODE_ENV=production: the merchant id, assets and products are required", () => {
    expect(() =>
      browserServiceConfiguration("https://shop.example", { NODE_ENV: "production" }),
    ).toThrow(/SERVICE_ASSETS_URL, SERVICE_MERCHANT_ID, SERVICE_PRODUCTS/);
    expect(
      browserServiceConfiguration("https://shop.example", {
        NODE_ENV: "production",
        SERVICE_ASSETS_URL: "https://assets.service.example",
        SERVICE_MERCHANT_ID: "m_live",
        SERVICE_PRODUCTS: "valuations",
      }).merchantId,
    ).toBe("m_live");
  });
});
