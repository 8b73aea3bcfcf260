import { afterEach, describe, expect, it, vi } from "vitest";
import { register } from "@/instrumentation";
import { TEST_ENV } from "@/test-support/test-db";
import { checkServiceSettingsAtStart } from "./service";

// The server's start (instrumentation.ts): with NODE_ENV=production a missing service setting
// stops it, naming the setting (docs/decisions/production-settings.md).

const shopSettings = {
  DATABASE_URL: "file:./never-opened.db",
  SESSION_SECRET: TEST_ENV.SESSION_SECRET,
  ADMIN_EMAIL: TEST_ENV.ADMIN_EMAIL,
  ADMIN_PASSWORD: TEST_ENV.ADMIN_PASSWORD,
  SHOP_BASE_URL: TEST_ENV.SHOP_BASE_URL,
};

const everyServiceSetting = {
  SERVICE_API_BASE_URL: "https://api.service.example",
  SERVICE_ASSETS_URL: "https://assets.service.example",
  SERVICE_CLIENT_ID: "live-client",
  SERVICE_CLIENT_SECRET: "live-secret",
  SERVICE_USERNAME: "live-user",
  SERVICE_PASSWORD: "live-password",
  SERVICE_TOKEN_KEY: "k".repeat(32),
  SERVICE_MERCHANT_ID: "m_live",
  SERVICE_PRODUCTS: "valuations+ep1",
  SERVICE_ORDER_CREATION: "webhook",
};

afterEach(() => vi.unstubAllEnvs());

describe("the server's start with NODE_ENV=production", () => {
  it("stops the process without the service settings, naming what is missing", async () => {
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    vi.stubEnv("NODE_ENV", "production");
    for (const [name, value] of Object.entries(shopSettings)) vi.stubEnv(name, value);
    // Only the three secrets, as a host that copied the old .env.example's "optional" note.
    vi.stubEnv("SERVICE_CLIENT_SECRET", "live-secret");
    vi.stubEnv("SERVICE_PASSWORD", "live-password");
    vi.stubEnv("SERVICE_TOKEN_KEY", "k".repeat(32));
    for (const name of [
      "SERVICE_API_BASE_URL",
      "SERVICE_ASSETS_URL",
      "SERVICE_CLIENT_ID",
      "SERVICE_USERNAME",
      "SERVICE_MERCHANT_ID",
      "SERVICE_PRODUCTS",
      "SERVICE_ORDER_CREATION",
    ]) {
      vi.stubEnv(name, undefined);
    }
    const exit = vi.spyOn(process, "exit").mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await expect(register()).rejects.toThrow("exit 1");
      expect(exit).toHaveBeenCalledWith(1);
      expect(logged).toHaveBeenCalledWith(
        expect.stringContaining(
          "missing: SERVICE_API_BASE_URL, SERVICE_ASSETS_URL, SERVICE_CLIENT_ID, SERVICE_USERNAME, SERVICE_MERCHANT_ID, SERVICE_PRODUCTS, SERVICE_ORDER_CREATION",
        ),
      );
    } finally {
      exit.mockRestore();
      logged.mockRestore();
    }
  });

  it("stops the process without TRUSTED_PROXY_HOPS, saying what 0 and N mean", async () => {
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    vi.stubEnv("NODE_ENV", "production");
    for (const [name, value] of Object.entries({ ...shopSettings, ...everyServiceSetting })) {
      vi.stubEnv(name, value);
    }
    vi.stubEnv("TRUSTED_PROXY_HOPS", undefined);
    const exit = vi.spyOn(process, "exit").mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await expect(register()).rejects.toThrow("exit 1");
      expect(logged).toHaveBeenCalledTimes(1);
      const message = String(logged.mock.calls[0]?.[0]);
      expect(message).toMatch(/^Refusing to start: Invalid shop configuration/);
      expect(message).toContain("TRUSTED_PROXY_HOPS: required with NODE_ENV=production");
      expect(message).toContain("0: the shop is reached directly");
      expect(message).toContain("N (1 to 10): N reverse proxies");
      // Said once, although the service check reads the shop's settings too.
      expect(message.match(/TRUSTED_PROXY_HOPS: required/g)).toHaveLength(1);
    } finally {
      exit.mockRestore();
      logged.mockRestore();
    }
  });

  it("accepts every setting, and checks the browser's ones too", () => {
    const env = {
      NODE_ENV: "production",
      ...shopSettings,
      TRUSTED_PROXY_HOPS: "0",
      ...everyServiceSetting,
    };
    expect(() => checkServiceSettingsAtStart(env)).not.toThrow();
    expect(() => checkServiceSettingsAtStart({ ...env, SERVICE_PRODUCTS: "ep1; x" })).toThrow(
      /SERVICE_PRODUCTS/,
    );
  });

  it("lets the demo and the tests start on the demo's values outside production", () => {
    expect(() => checkServiceSettingsAtStart({ NODE_ENV: "test", ...shopSettings })).not.toThrow();
  });
});
