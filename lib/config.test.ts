import { describe, expect, it } from "vitest";
import { parseConfig, trustedProxyHopsMeaning } from "./config";

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

  it("with NODE_ENV=production refuses an unset or empty TRUSTED_PROXY_HOPS, saying what each value means", () => {
    const production = { ...good, NODE_ENV: "production" };
    for (const unset of [{}, { TRUSTED_PROXY_HOPS: "" }, { TRUSTED_PROXY_HOPS: "  " }]) {
      let message = "";
      try {
        parseConfig({ ...production, ...unset });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain(
        "TRUSTED_PROXY_HOPS: required with NODE_ENV=production, 0 included",
      );
      expect(message).toMatch(
        /0: the shop is reached directly.*X-Forwarded-For chooses the address/,
      );
      expect(message).toMatch(/N \(1 to 10\): N reverse proxies.*the entry N from the right/);
    }
    // Said out loud, 0 is a value like any other; outside production unset still means 0.
    expect(parseConfig({ ...production, TRUSTED_PROXY_HOPS: "0" }).TRUSTED_PROXY_HOPS).toBe(0);
    expect(parseConfig({ ...production, TRUSTED_PROXY_HOPS: "1" }).TRUSTED_PROXY_HOPS).toBe(1);
    expect(parseConfig({ ...good, NODE_ENV: "development" }).TRUSTED_PROXY_HOPS).toBe(0);
    expect(parseConfig({ ...good, TRUSTED_PROXY_HOPS: "" }).TRUSTED_PROXY_HOPS).toBe(0);
  });

  it("names the refusal beside every other bad value in production", () => {
    expect(() => parseConfig({ ...good, NODE_ENV: "production", SESSION_SECRET: "short" })).toThrow(
      /SESSION_SECRET: must be at least 32[\s\S]*TRUSTED_PROXY_HOPS: required/,
    );
  });

  it("says in one line what the configured value means", () => {
    expect(trustedProxyHopsMeaning(0)).toMatch(
      /^TRUSTED_PROXY_HOPS=0: the shop is reached directly; a client that writes its own X-Forwarded-For chooses/,
    );
    expect(trustedProxyHopsMeaning(1)).toMatch(/^TRUSTED_PROXY_HOPS=1: 1 reverse proxy appends/);
    expect(trustedProxyHopsMeaning(2)).toMatch(/entry 2 from the right/);
    expect(trustedProxyHopsMeaning(2)).not.toContain("\n");
  });

  it("reads LOGIN_THROTTLE_MAX_ROWS as a whole number of rows, 10,000 by default", () => {
    expect(parseConfig(good).LOGIN_THROTTLE_MAX_ROWS).toBe(10_000);
    expect(parseConfig({ ...good, LOGIN_THROTTLE_MAX_ROWS: "" }).LOGIN_THROTTLE_MAX_ROWS).toBe(
      10_000,
    );
    expect(parseConfig({ ...good, LOGIN_THROTTLE_MAX_ROWS: "200" }).LOGIN_THROTTLE_MAX_ROWS).toBe(
      200,
    );
    for (const rows of ["99", "2.5", "many", "10000001"]) {
      expect(() => parseConfig({ ...good, LOGIN_THROTTLE_MAX_ROWS: rows })).toThrow(
        /LOGIN_THROTTLE_MAX_ROWS: must/,
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
