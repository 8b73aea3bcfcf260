import { describe, expect, it } from "vitest";
import { safeReturnPath } from "./safe-redirect";

describe("safeReturnPath", () => {
  it("keeps same-site paths and refuses everything else", () => {
    expect(safeReturnPath("/products/aurora-x1?x=1")).toBe("/products/aurora-x1?x=1");
    expect(safeReturnPath("//evil.example")).toBe("/");
    expect(safeReturnPath("https://evil.example")).toBe("/");
    expect(safeReturnPath("/\\evil.example")).toBe("/");
    expect(safeReturnPath(null, "/cart")).toBe("/cart");
  });
});
