// Fixtures of the service journeys (e2e/service-*.e2e.ts), also used by issue #6's tests:
//   import { expect, test } from "./support/fixtures";
//   test("… @emulator", async ({ page, sdk, emulator, shop }) => { … });
// - `sdk`: the ServiceSdkDriver of `page` (records the SDK's events from the first page on).
// - `emulator`: the control API client; using it RESETS the emulator to its seed before and after
//   the test. Put
//   `@emulator` in the title of every test that uses it (see ./emulator.ts).
// - `shop`: the storefront's own steps (log in, add to cart, checkout details, pay choice).
// Every test fails on an uncaught exception in the page. Each test gets a fresh browser context,
// so a fresh shop session (and session hash).
import { test as base, expect } from "@playwright/test";
import { emulator as emulatorClient, type MerchantPatch } from "./emulator";
import { ServiceSdkDriver } from "./service-sdk-driver";
import { ShopSteps } from "./shop";

export type ServiceVariantOptions = {
  /** The merchant settings of a service variant project (./service-variants.ts), applied to
   *  m_demo after each reset; undefined: the emulator's defaults. */
  serviceMerchant: MerchantPatch | undefined;
};

export const test = base.extend<
  {
    sdk: ServiceSdkDriver;
    emulator: typeof emulatorClient;
    shop: ShopSteps;
    pageErrors: string[];
  },
  ServiceVariantOptions
>({
  serviceMerchant: [undefined, { option: true, scope: "worker" }],
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await use(errors);
      expect(errors, "no uncaught exception in the page").toEqual([]);
    },
    { auto: true },
  ],
  sdk: async ({ page }, use) => {
    await use(await ServiceSdkDriver.attach(page));
  },
  emulator: async ({ serviceMerchant }, use) => {
    await emulatorClient.reset();
    if (serviceMerchant) await emulatorClient.patchMerchant("m_demo", serviceMerchant);
    await use(emulatorClient);
    // And after: a test without the control API then starts from the seed too.
    await emulatorClient.reset();
  },
  shop: async ({ page }, use) => {
    await use(new ShopSteps(page));
  },
});

export { expect };
