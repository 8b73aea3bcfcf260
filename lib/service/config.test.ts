import { describe, expect, it } from "vitest";
import { readServiceConfig, ServiceConfigError } from "./config";

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
