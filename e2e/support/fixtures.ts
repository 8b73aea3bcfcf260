// Fixtures of the service journeys (e2e/service-*.e2e.ts), also used by the post-purchase tests:
//   import { expect, test } from "./support/fixtures";
//   test("… @emulator", async ({ page, sdk, emulator, shop }) => { … });
// - `sdk`: the ServiceSdkDriver of `page` (records the SDK's events from the first page on).
// - `emulator`: the control API client; using it RESETS the emulator to its seed before and after
//   the test; with SERVICE_FIXTURE=none the test is skipped with the reason (./service-fixture.ts).
//   Put
//   `@emulator` in the title of every test that uses it (see ./emulator.ts).
// - `service`: the same, through the ServiceFixture interface (./service-fixture.ts): what a
//   journey needs from the service side, the emulator's control API being one implementation.
// - `testDevices`: the emulator's magic test devices (skipped with the reason without a fixture).
// - `shop`: the storefront's own steps (log in, add to cart, checkout details, pay choice).
// Every test fails on an uncaught exception in the page. Each test gets a fresh browser context,
// so a fresh shop session (and session hash).
import { type BrowserContext, expect } from "@playwright/test";
import { test as base } from "../../scripts/sdk-release/sdk-coverage";
import { emulator as emulatorClient, type MerchantPatch } from "./emulator";
import {
  emulatorServiceFixture,
  NO_TEST_DEVICES_REASON,
  type ServiceFixture,
  skipWithoutServiceFixture,
} from "./service-fixture";
import { ServiceSdkDriver, TEST_CATEGORY, TEST_DEVICES } from "./service-sdk-driver";
import { ShopSteps } from "./shop";
import { rawShopSession } from "./shop-session";

export type ServiceVariantOptions = {
  /** The merchant settings of a service variant (./service-variants.ts), applied to
   *  m_demo after each reset; undefined: the emulator's defaults. */
  serviceMerchant: MerchantPatch | undefined;
  /** `shop.startSignedIn` logs in through the form instead of the stored cookie: the cluster
   *  project, whose shop keeps its customers in PostgreSQL behind a balancer. */
  signInByForm: boolean;
};

export const test = base.extend<
  {
    sdk: ServiceSdkDriver;
    emulator: typeof emulatorClient;
    service: ServiceFixture;
    testDevices: typeof TEST_DEVICES & { category: typeof TEST_CATEGORY };
    shop: ShopSteps;
    pageErrors: string[];
    readinessDeclaration: undefined;
    serviceMerchant: ServiceVariantOptions["serviceMerchant"];
  },
  Pick<ServiceVariantOptions, "signInByForm">
>({
  serviceMerchant: [undefined, { option: true }],
  signInByForm: [false, { option: true, scope: "worker" }],
  // Every test tells the readiness report its shopper's raw session id and salt (they must
  // appear nowhere in the service's journal). Torn down after the test's own fixtures.
  readinessDeclaration: [
    async ({ context }, use) => {
      await use(undefined);
      await declareRawSession(context);
    },
    { auto: true },
  ],
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
  emulator: async ({ serviceMerchant, context }, use, testInfo) => {
    // Against a service without a control API the test is reported as skipped, with the reason.
    skipWithoutServiceFixture(testInfo);
    await emulatorClient.reset();
    if (serviceMerchant) await emulatorClient.patchMerchant("m_demo", serviceMerchant);
    // The release suite (scripts/sdk-release) names the SDK build it means to test.
    if (process.env.EXPECT_SDK_SHA256) {
      expect((await emulatorClient.sdk()).sha256, "the emulator serves the SDK under test").toBe(
        process.env.EXPECT_SDK_SHA256,
      );
    }
    await use(emulatorClient);
    // Before the reset: the readiness report judges this test's traffic as the reset archives it.
    await declareRawSession(context);
    // And after: a test without the control API then starts from the seed too.
    await emulatorClient.reset();
  },
  // Set up (skip, reset, SDK check) and torn down by `emulator`, whose implementation it is.
  service: async ({ emulator: _usesEmulator }, use) => {
    await use(emulatorServiceFixture);
  },
  // The emulator's magic test devices, valued through the wizard (no control API call, so no
  // reset): skipped with the reason against a service that has none (./service-fixture.ts).
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern
  testDevices: async ({}, use, testInfo) => {
    skipWithoutServiceFixture(testInfo, NO_TEST_DEVICES_REASON);
    await use({ ...TEST_DEVICES, category: TEST_CATEGORY });
  },
  shop: async ({ page, signInByForm }, use) => {
    await use(new ShopSteps(page, { signInByForm }));
  },
});

async function declareRawSession(context: BrowserContext) {
  const raw = await rawShopSession(context).catch(() => undefined);
  if (raw) await emulatorClient.declareRawSession(raw);
}

export { expect };
