import { describe, expect, it } from "vitest";
import { CHECK_PORTS, SHOP_PORTS } from "./test-support/conformance-ports.js";
import { shopPortsConformanceChecks } from "./test-support/shop-ports-conformance.js";

// The table of the ports in docs/integrating.md is made from these: each check names the ports
// it proves, and each port a check names is described.
describe("the conformance checks' ports", () => {
  const checks = shopPortsConformanceChecks(async () => {
    throw new Error("no check runs here");
  });

  it("every check names its ports, and no port mapping is left without its check", () => {
    expect(checks.map((c) => c.key).sort()).toEqual(Object.keys(CHECK_PORTS).sort());
    for (const c of checks) expect(c.ports.length, c.key).toBeGreaterThan(0);
  });

  it("every port a check proves is described once", () => {
    const described = SHOP_PORTS.map((p) => p.port);
    expect(new Set(described).size).toBe(described.length);
    for (const ports of Object.values(CHECK_PORTS)) {
      for (const port of ports) expect(described).toContain(port);
    }
  });
});
