import { describe, expect, it } from "vitest";
import {
  assertProductionServiceSettings,
  DEMO_SERVICE_SETTINGS,
  readOrderCreationMode,
  readServiceConfig,
  SERVICE_SETTING_NAMES,
  ServiceConfigError,
} from "./config.js";

const secrets = {
  SERVICE_CLIENT_SECRET: "s3cret",
  SERVICE_PASSWORD: "pw",
  SERVICE_TOKEN_KEY: "t".repeat(32),
};

describe("readServiceConfig", () => {
  it("uses the .env.example defaults for non-secret values", () => {
    expect(readServiceConfig(secrets)).toEqual({
      apiBaseUrl: "http://localhost:4010",
      assetsUrl: "http://localhost:4010/assets",
      clientId: "demo-client",
      clientSecret: "s3cret",
      username: "merchant-admin",
      password: "pw",
      tokenKey: "t".repeat(32),
    });
  });

  it("strips trailing slashes so paths are not doubled", () => {
    const config = readServiceConfig({
      ...secrets,
      SERVICE_API_BASE_URL: "https://staging.example.com/api/",
    });
    expect(config.apiBaseUrl).toBe("https://staging.example.com/api");
  });

  it("requires the secrets and names what is missing without echoing values", () => {
    expect(() => readServiceConfig({ SERVICE_PASSWORD: "hunter2" })).toThrow(
      /SERVICE_CLIENT_SECRET is required/,
    );
    try {
      readServiceConfig({ SERVICE_PASSWORD: "hunter2", SERVICE_API_BASE_URL: "nope" });
    } catch (error) {
      expect(error).toBeInstanceOf(ServiceConfigError);
      expect(String(error)).toMatch(/SERVICE_API_BASE_URL/);
      expect(String(error)).not.toMatch(/hunter2/);
    }
  });

  it("requires a token key long enough to seal the stored tokens, without echoing it", () => {
    const { SERVICE_TOKEN_KEY: _, ...withoutKey } = secrets;
    expect(() => readServiceConfig(withoutKey)).toThrow(/SERVICE_TOKEN_KEY is required/);
    expect(() => readServiceConfig({ ...secrets, SERVICE_TOKEN_KEY: "too-short-key" })).toThrow(
      /SERVICE_TOKEN_KEY: must be at least 32 characters/,
    );
    expect(() => readServiceConfig({ ...secrets, SERVICE_TOKEN_KEY: "too-short-key" })).not.toThrow(
      /too-short-key/,
    );
  });

  it("treats an empty variable as unset", () => {
    expect(readServiceConfig({ ...secrets, SERVICE_CLIENT_ID: "" }).clientId).toBe("demo-client");
  });

  it("rejects non-http URLs", () => {
    expect(() => readServiceConfig({ ...secrets, SERVICE_ASSETS_URL: "ftp://x.example" })).toThrow(
      ServiceConfigError,
    );
  });
});

describe("with NODE_ENV=production", () => {
  const production = { NODE_ENV: "production", ...secrets };
  const everySetting = {
    ...production,
    SERVICE_API_BASE_URL: "https://api.service.example",
    SERVICE_ASSETS_URL: "https://assets.service.example",
    SERVICE_CLIENT_ID: "live-client",
    SERVICE_USERNAME: "live-user",
    SERVICE_MERCHANT_ID: "m_live",
    SERVICE_PRODUCTS: "valuations",
    SERVICE_ORDER_CREATION: "webhook",
  };

  it("has no demo value: each non-secret setting is required and named", () => {
    let message = "";
    try {
      readServiceConfig(production);
    } catch (error) {
      expect(error).toBeInstanceOf(ServiceConfigError);
      message = String(error);
    }
    for (const name of [
      "SERVICE_API_BASE_URL",
      "SERVICE_ASSETS_URL",
      "SERVICE_CLIENT_ID",
      "SERVICE_USERNAME",
    ]) {
      expect(message).toContain(`${name} is required`);
    }
    expect(() => readOrderCreationMode(production)).toThrow(/SERVICE_ORDER_CREATION is required/);
    // An empty variable is unset there too: it does not bring the demo value back.
    expect(() => readServiceConfig({ ...everySetting, SERVICE_API_BASE_URL: "" })).toThrow(
      /SERVICE_API_BASE_URL is required/,
    );
  });

  it("reads what is set, and the start check passes with every setting", () => {
    expect(readServiceConfig(everySetting)).toMatchObject({
      apiBaseUrl: "https://api.service.example",
      clientId: "live-client",
      username: "live-user",
    });
    expect(readOrderCreationMode(everySetting)).toBe("webhook");
    expect(() => assertProductionServiceSettings(everySetting)).not.toThrow();
  });

  it("the start check names every missing setting in one message, never a value", () => {
    const { SERVICE_MERCHANT_ID: _, SERVICE_USERNAME: __, ...without } = everySetting;
    expect(() => assertProductionServiceSettings(without)).toThrow(
      /missing: SERVICE_USERNAME, SERVICE_MERCHANT_ID/,
    );
    expect(() => assertProductionServiceSettings({ NODE_ENV: "production" })).toThrow(
      new RegExp(`missing: ${SERVICE_SETTING_NAMES.join(", ")}`),
    );
    expect(() =>
      assertProductionServiceSettings({ ...without, SERVICE_PASSWORD: "hunter2" }),
    ).not.toThrow(/hunter2/);
    // A bad value is refused at start as well.
    expect(() =>
      assertProductionServiceSettings({ ...everySetting, SERVICE_ORDER_CREATION: "later" }),
    ).toThrow(/SERVICE_ORDER_CREATION/);
  });

  it("does nothing outside production: the demo's values stand in", () => {
    expect(() => assertProductionServiceSettings({ NODE_ENV: "development" })).not.toThrow();
    expect(readOrderCreationMode({})).toBe(DEMO_SERVICE_SETTINGS.SERVICE_ORDER_CREATION);
  });
});
