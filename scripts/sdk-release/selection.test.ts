import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SHOP_OWN, shopOwnPattern, storefrontSelection } from "./selection";

const ROOT = path.resolve(import.meta.dirname, "../..");
// Playwright's --grep subject: "<project> <file> <describe titles> <title> <tags>".
const subject = (file: string, title: string) => `storefront ${file} ${title}`;

describe("SHOP_OWN, the storefront tests the release run leaves to npm test's own step", () => {
  it("names files that exist and a describe title the service variants still use", () => {
    for (const { match } of SHOP_OWN) {
      if (match.endsWith(".e2e.ts"))
        expect(existsSync(path.join(ROOT, "e2e", match)), match).toBe(true);
    }
    const variants = readFileSync(path.join(ROOT, "e2e/support/service-variants.ts"), "utf8");
    expect(variants).toMatch(/test\.describe\(`service variant: /);
  });

  it("matches the listed files and the variant readings, never the SDK journeys or the default reading", () => {
    const pattern = new RegExp(shopOwnPattern());
    expect(pattern.test(subject("security.e2e.ts", "sessions @security › a cookie"))).toBe(true);
    expect(pattern.test(subject("demo-guide.e2e.ts", "scenario 1, Service Pay"))).toBe(true);
    expect(
      pattern.test(
        subject(
          "service-pay.e2e.ts",
          "service variant: opaque UUID session_id › go-live scenario 1",
        ),
      ),
    ).toBe(true);
    expect(
      pattern.test(subject("service-pay.e2e.ts", "go-live scenario 1: teaser @variants")),
    ).toBe(false);
    expect(
      pattern.test(subject("service-sdk-twice-and-failing.e2e.ts", "Pay now double-clicked")),
    ).toBe(false);
    // a dot is a dot: "securityXe2e.ts" is not the file
    expect(pattern.test(subject("securityXe2eXts", "x"))).toBe(false);
  });
});

describe("storefrontSelection (playwright.config.ts's storefront project)", () => {
  const title = (file: string, t: string) => `${file} ${t}`;
  it("release: everything but the shop's own, and what --skip adds; shop-own: those alone", () => {
    const release = storefrontSelection({ E2E_SELECTION: "release", E2E_GREP_INVERT: "^skipped" });
    expect(release.grep).toBeUndefined();
    expect(release.grepInvert?.test(title("phone.e2e.ts", "checkout at 390 px"))).toBe(true);
    expect(release.grepInvert?.test("skipped journey")).toBe(true);
    expect(release.grepInvert?.test(title("one-amount.e2e.ts", "Service Pay"))).toBe(false);
    const own = storefrontSelection({ E2E_SELECTION: "shop-own" });
    expect(own.grepInvert).toBeUndefined();
    expect(own.grep?.test(title("phone.e2e.ts", "checkout at 390 px"))).toBe(true);
    expect(own.grep?.test(title("one-amount.e2e.ts", "Service Pay"))).toBe(false);
  });

  it("unset: every test (with --skip's filter alone); anything else is refused", () => {
    expect(storefrontSelection({})).toEqual({});
    expect(storefrontSelection({ E2E_GREP_INVERT: "x" }).grepInvert?.source).toBe("x");
    expect(() => storefrontSelection({ E2E_SELECTION: "all" })).toThrow(/E2E_SELECTION must be/);
  });
});
