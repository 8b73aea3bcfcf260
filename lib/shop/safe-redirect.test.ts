import { describe, expect, it } from "vitest";
import { redirectBypasses } from "@/test-support/redirect-bypasses";
import { safeReturnPath } from "./safe-redirect";

const SHOP = "http://localhost:3000";
const ret = (value: unknown, fallback = "/") => safeReturnPath(value, fallback, SHOP);

describe("safeReturnPath", () => {
  it("keeps paths on the shop", () => {
    expect(ret("/products/aurora-x1?x=1")).toBe("/products/aurora-x1?x=1");
    expect(ret("/account#orders")).toBe("/account#orders");
    expect(ret("http://localhost:3000/cart")).toBe("/cart");
    expect(ret("checkout")).toBe("/checkout");
    expect(ret("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example");
  });

  it.each(redirectBypasses(new URL(SHOP).host))("refuses %j", (value) => {
    const path = ret(value, "/fallback");
    // Whatever comes back, the browser must resolve it to the shop's own origin.
    expect(new URL(path, SHOP).origin).toBe(SHOP);
    expect(path.startsWith("//")).toBe(false);
    expect(path.startsWith("/\\")).toBe(false);
  });

  it("falls back on non-strings and empty values", () => {
    expect(ret(null, "/cart")).toBe("/cart");
    expect(ret("", "/cart")).toBe("/cart");
    expect(ret(42, "/cart")).toBe("/cart");
    expect(ret("/".padEnd(3000, "a"), "/cart")).toBe("/cart");
  });
});
