import { describe, expect, it } from "vitest";
import { parseConfig } from "./config";

const good = {
  DATABASE_URL: "file:./dev.db",
  SESSION_SECRET: "x".repeat(32),
  ADMIN_EMAIL: "admin@example.com",
  ADMIN_PASSWORD: "admin-demo-password",
  SHOP_BASE_URL: "http://localhost:3000/",
};

describe("parseConfig", () => {
  it("accepts the example values and trims the base URL", () => {
    expect(parseConfig(good).SHOP_BASE_URL).toBe("http://localhost:3000");
  });

  it("names every bad value in one message", () => {
    expect(() => parseConfig({ ...good, SESSION_SECRET: "short", SHOP_BASE_URL: "nope" })).toThrow(
      /SESSION_SECRET: must be at least 32[\s\S]*SHOP_BASE_URL/,
    );
  });

  it("reads TRUSTED_PROXY_HOPS as a small whole number, 0 by default", () => {
    expect(parseConfig(good).TRUSTED_PROXY_HOPS).toBe(0);
    expect(parseConfig({ ...good, TRUSTED_PROXY_HOPS: "1" }).TRUSTED_PROXY_HOPS).toBe(1);
    for (const hops of ["-1", "1.5", "eleven", "11"]) {
      expect(() => parseConfig({ ...good, TRUSTED_PROXY_HOPS: hops })).toThrow(
        /TRUSTED_PROXY_HOPS/,
      );
    }
  });

  it("takes a SQLite or a PostgreSQL DATABASE_URL, and nothing else", () => {
    for (const url of ["file:./dev.db", "postgresql://shop@db:5432/shop", "postgres://db/shop"]) {
      expect(parseConfig({ ...good, DATABASE_URL: url }).DATABASE_URL).toBe(url);
    }
    for (const url of ["mysql://db/shop", "./dev.db", "postgresql:shop", ""]) {
      expect(() => parseConfig({ ...good, DATABASE_URL: url })).toThrow(/DATABASE_URL/);
    }
  });
});
