// The staging run's stand-in serves its SDK to the shop the storefront suite starts: the SDK is
// imported cross-origin (contract, Front-end SDK), so an origin the service does not allow is a
// page where the SDK never loads and every journey waiting for `service-ready` times out.
// That the started stand-in really answers the shop's origin (and only it) is checked by
// startStagingService itself before a staging run begins, on every `npm test` (its staging step);
// here, cheaply, that it is started for the suite's own shop and no other.
import { afterEach, describe, expect, it, vi } from "vitest";

const moved = process.env.E2E_SHOP_PORT;
afterEach(() => {
  if (moved === undefined) delete process.env.E2E_SHOP_PORT;
  else process.env.E2E_SHOP_PORT = moved;
  vi.resetModules();
});

describe("the staging run's stand-in service", () => {
  it("with no E2E_SHOP_PORT, is started for the suite's shop on 3800, not the demo's 3000", async () => {
    delete process.env.E2E_SHOP_PORT;
    vi.resetModules();
    const { stagingServiceEnv } = await import("./staging-service");
    expect(stagingServiceEnv(4999)).toEqual({
      EMULATOR_PORT: "4999",
      EMULATOR_SHOP_URL: "http://localhost:3800",
    });
  });

  it("follows E2E_SHOP_PORT, as the suite's stack does", async () => {
    process.env.E2E_SHOP_PORT = "3977";
    vi.resetModules();
    const { stagingServiceEnv } = await import("./staging-service");
    expect(stagingServiceEnv(4999).EMULATOR_SHOP_URL).toBe("http://localhost:3977");
  });
});
