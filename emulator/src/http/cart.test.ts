import { describe, expect, it } from "vitest";
import { checkCart, decodeCart } from "./cart";

const item = {
  id: "i1",
  name: "n",
  description: "d",
  url: "u",
  quantity: 2,
  price: 1000,
  tax: 420,
  total: 2420,
};
const cart = { id: "c1", currency: "EUR", items: [item], price: 2000, tax: 420, total: 2420 };
const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64");

describe("cart validation (contract: Cart, Cart item, Discount)", () => {
  it("accepts a cart whose sums add up, in standard or URL-safe Base64", () => {
    expect(decodeCart(encode(cart)).ok).toBe(true);
    expect(decodeCart(Buffer.from(JSON.stringify(cart)).toString("base64url")).ok).toBe(true);
  });

  it("subtracts discounts from the total", () => {
    const discounted = { ...cart, discounts: [{ id: "d", name: "x", total: 420 }], total: 2000 };
    expect(checkCart(discounted).ok).toBe(true);
    expect(checkCart({ ...discounted, total: 2420 }).ok).toBe(false);
  });

  it.each([
    ["a decimal", { ...cart, tax: 420.5 }],
    ["a wrong item total", { ...cart, items: [{ ...item, total: 2000 }] }],
    ["a wrong price", { ...cart, price: 1000 }],
    ["a wrong tax", { ...cart, tax: 0, total: 2000 }],
    ["a lower-case currency", { ...cart, currency: "eur" }],
  ])("rejects %s", (_, value) => {
    expect(checkCart(value).ok).toBe(false);
  });

  it("tells Base64 errors from JSON errors", () => {
    expect(decodeCart("@@@")).toMatchObject({
      ok: false,
      description: expect.stringContaining("Base64"),
    });
    expect(decodeCart(Buffer.from("not json").toString("base64"))).toMatchObject({
      ok: false,
      description: expect.stringContaining("not of JSON"),
    });
  });
});
