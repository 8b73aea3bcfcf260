// The staging run's stand-in serves its SDK to the shop the storefront suite starts: the SDK is
// imported cross-origin (contract, Front-end SDK), so an origin the service does not allow is a
// page where the SDK never loads and every journey waiting for `service-ready` times out.
import { afterEach, describe, expect, it, vi } from "vitest";

const moved = process.env.E2E_SHOP_PORT;
afterEach(() => {
  if (moved === undefined) delete process.env.E2E_SHOP_PORT;
  else process.env.E2E_SHOP_PORT = moved;
  vi.resetModules();
});

async function sdkAnswer(serviceUrl: string, origin: string) {
  const response = await fetch(`${serviceUrl}/assets/v1/main.js`, { headers: { Origin: origin } });
  await response.arrayBuffer();
  return { status: response.status, allowed: response.headers.get("access-control-allow-origin") };
}

describe("the staging run's stand-in service", () => {
  it("with no E2E_SHOP_PORT, serves its SDK to the suite's shop on 3800, not to the demo's 3000", async () => {
    delete process.env.E2E_SHOP_PORT;
    vi.resetModules();
    const { startStagingService } = await import("./staging-service");
    const service = await startStagingService();
    try {
      expect(service.shopUrl).toBe("http://localhost:3800");
      expect(await sdkAnswer(service.url, "http://localhost:3800")).toEqual({
        status: 200,
        allowed: "http://localhost:3800",
      });
      expect((await sdkAnswer(service.url, "http://localhost:3000")).allowed).toBeNull();
    } finally {
      await service.stop();
    }
  });

  it("follows E2E_SHOP_PORT, as the suite's stack does", async () => {
    process.env.E2E_SHOP_PORT = "3977";
    vi.resetModules();
    const { stagingShopUrl } = await import("./staging-service");
    expect(stagingShopUrl()).toBe("http://localhost:3977");
  });
});
