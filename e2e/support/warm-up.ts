// Playwright's global setup (after the web servers answer, before the first test): every
// stack's storefront renders each kind of page once and its emulator serves the SDK once, so
// the first journeys of a run do not pay the servers' cold start (route modules loaded, the SDK
// bundled) inside their own time limit. On a machine half as fast that cold start alone took a
// first journey past its limit. A few requests, no waiting.
import { STACK, stackCount, stackOf } from "./stack";

const PAGES = [
  "/",
  "/products/aurora-x1",
  "/category/phones",
  "/search?q=aurora",
  "/cart",
  "/checkout",
  "/account/login",
  "/admin/login",
  "/api/service/purchase_data",
];

export default async function warmUp(): Promise<void> {
  const stacks = Array.from({ length: stackCount() }, (_, k) => stackOf(k));
  await Promise.all(
    stacks.map(async (stack) => {
      for (const page of PAGES) await (await fetch(`${stack.shopUrl}${page}`)).arrayBuffer();
      if (STACK.emulatorPort > 0) {
        await (await fetch(`${stack.emulatorUrl}/assets/v1/main.js`)).arrayBuffer();
      }
    }),
  );
}
