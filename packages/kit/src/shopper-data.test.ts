import { describe, expect, it } from "vitest";
import { buildShopperData, SHOPPER_NOT_FOUND, shopperDataSchema } from "./shopper-data.js";

const hash = "a".repeat(64);

describe("buildShopperData", () => {
  it("produces the contract shape with snake_case names and a string id", () => {
    expect(
      buildShopperData({
        customer: { id: 12, email: "ana@example.com", givenName: "Ana", familyName: "Ruiz" },
        sessionHash: hash,
      }),
    ).toEqual({
      customer: { id: "12", email: "ana@example.com", given_name: "Ana", family_name: "Ruiz" },
      session_hash_token: hash,
    });
  });

  it("refuses anything but a lowercase hex HMAC as the token (e.g. a raw session id)", () => {
    const customer = { id: "1", email: "a@b.c", givenName: "A", familyName: "B" };
    expect(() => buildShopperData({ customer, sessionHash: "sess_raw_id" })).toThrow();
    expect(() => buildShopperData({ customer, sessionHash: hash.toUpperCase() })).toThrow();
  });

  it("has the contract's not_found body for a missing customer", () => {
    expect(SHOPPER_NOT_FOUND.error).toBe("not_found");
    expect(shopperDataSchema.safeParse({ session_hash_token: hash }).success).toBe(false);
  });
});
