import { describe, expect, it } from "vitest";
import { catalogRenderHeaders, catalogRenderVariant } from "./catalog-render";

const SECRET = "a-session-secret-of-at-least-32-characters";

describe("catalog render requests", () => {
  it("are known by the token made from the session secret, with their variant", () => {
    const headers = new Headers(
      catalogRenderHeaders(SECRET, { currency: "GBP", inspector: "closed" }),
    );
    expect(catalogRenderVariant(headers, SECRET)).toEqual({
      currency: "GBP",
      inspector: "closed",
    });
    const plain = new Headers(catalogRenderHeaders(SECRET, { currency: "EUR", inspector: null }));
    expect(catalogRenderVariant(plain, SECRET)).toEqual({ currency: "EUR", inspector: null });
  });

  it("are refused with another secret's token, a cut or forged one, or no known currency", () => {
    const made = catalogRenderHeaders(SECRET, { currency: "EUR", inspector: null });
    const token = made["x-catalog-render"] ?? "";
    const otherSecret = new Headers(
      catalogRenderHeaders(`${SECRET}!`, { currency: "EUR", inspector: null }),
    );
    expect(catalogRenderVariant(otherSecret, SECRET)).toBeNull();
    for (const forged of ["", "x", token.slice(1), `${token}0`, token.replace(/.$/, "0")]) {
      if (forged === token) continue;
      const headers = new Headers({ ...made, "x-catalog-render": forged });
      expect(catalogRenderVariant(headers, SECRET), forged).toBeNull();
    }
    for (const currency of ["USD", "eur", ""]) {
      const headers = new Headers({ ...made, "x-catalog-currency": currency });
      expect(catalogRenderVariant(headers, SECRET), currency).toBeNull();
    }
    expect(catalogRenderVariant(new Headers(), SECRET)).toBeNull();
  });

  it("take no inspector placement but the three the page knows", () => {
    const made = catalogRenderHeaders(SECRET, { currency: "EUR", inspector: null });
    const headers = new Headers({ ...made, "x-catalog-inspector": "open<script>" });
    expect(catalogRenderVariant(headers, SECRET)?.inspector).toBeNull();
  });
});
