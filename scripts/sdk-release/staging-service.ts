// The staging service's stand-in of `npm run test:sdk-staging` (./staging.ts): the emulator on a
// port of its own, its seed merchants bound to the storefront suite's one stack (a staging run has
// exactly one, e2e/support/stack.ts), so the shop that stack starts is the origin the service
// serves its SDK to and the address it sends its webhooks to. The stack's address comes from the
// suite's own definition: a second copy of its default port once sent the stand-in's
// Access-Control-Allow-Origin to another port than the suite's, and every journey that waits for
// the SDK then timed out with no hint why.
import path from "node:path";
import { stackOf } from "../../e2e/support/stack";
import { freePort, start, stop } from "../lib/processes.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface StagingService {
  /** the service's base URL (SERVICE_API_BASE_URL; its SDK is {url}/assets/v1/main.js) */
  url: string;
  /** the storefront the service serves its SDK to and sends its webhooks to */
  shopUrl: string;
  stop(): Promise<void>;
}

async function answers(url: string, init?: RequestInit): Promise<Response | null> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response;
  } catch {
    return null;
  }
}

/** The storefront the stand-in serves: the suite's one stack in a staging run. */
export function stagingShopUrl(): string {
  return stackOf(0).shopUrl;
}

/** What the stand-in emulator is started with: its port, and the suite's shop as the origin it
 *  serves its SDK to and the address it sends webhooks to (emulator/src/main.ts). */
export function stagingServiceEnv(servicePort: number): {
  EMULATOR_PORT: string;
  EMULATOR_SHOP_URL: string;
} {
  return { EMULATOR_PORT: String(servicePort), EMULATOR_SHOP_URL: stagingShopUrl() };
}

/**
 * Starts the stand-in and waits until it answers, then checks it serves its SDK to the shop's
 * origin (contract, Front-end SDK: the merchant's page imports {assets_url}/v1/main.js
 * cross-origin): a run against a service that refuses the shop's origin fails here, at once.
 */
export async function startStagingService(port?: number): Promise<StagingService> {
  const servicePort = port ?? (await freePort());
  const url = `http://localhost:${servicePort}`;
  const env = stagingServiceEnv(servicePort);
  const shopUrl = env.EMULATOR_SHOP_URL;
  // One process: node with tsx's loader (the tsx command would start a second node under it).
  const emulator = start(process.execPath, ["--import", "tsx", "emulator/src/main.ts"], env, ROOT);
  const service: StagingService = { url, shopUrl, stop: () => stop(emulator) };
  try {
    const started = Date.now();
    // Polled every 100 ms; the emulator starts in about a second.
    while (!(await answers(`${url}/__emulator/health`))?.ok) {
      if (emulator.exitCode !== null || Date.now() - started > 60_000) {
        throw new Error(`the staging service did not start:\n${emulator.log()}`);
      }
      await new Promise((done) => setTimeout(done, 100));
    }
    const origin = new URL(shopUrl).origin;
    const sdk = await answers(`${url}/assets/v1/main.js`, { headers: { Origin: origin } });
    if (!sdk?.ok || sdk.headers.get("access-control-allow-origin") !== origin) {
      throw new Error(
        `the staging service does not serve its SDK to the shop's origin ${origin} (status ${sdk?.status ?? "none"}, Access-Control-Allow-Origin ${sdk?.headers.get("access-control-allow-origin") ?? "absent"})`,
      );
    }
    return service;
  } catch (error) {
    await service.stop();
    throw error;
  }
}
