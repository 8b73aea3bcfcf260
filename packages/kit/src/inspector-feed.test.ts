import { describe, expect, it } from "vitest";
import { inspectorEnabled } from "./inspector-feed.js";

describe("inspectorEnabled", () => {
  it("is off unless turned on: unset, empty or anything else leaves it off", () => {
    expect(inspectorEnabled({})).toBe(false);
    expect(inspectorEnabled({ INTEGRATION_INSPECTOR: "" })).toBe(false);
    expect(inspectorEnabled({ INTEGRATION_INSPECTOR: "off" })).toBe(false);
    expect(inspectorEnabled({ INTEGRATION_INSPECTOR: "yes please" })).toBe(false);
  });

  it("is on with on, 1 or true", () => {
    for (const value of ["on", "1", "true", " ON "]) {
      expect(inspectorEnabled({ INTEGRATION_INSPECTOR: value })).toBe(true);
    }
  });
});
