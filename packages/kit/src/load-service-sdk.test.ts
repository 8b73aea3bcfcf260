// loadServiceSdk in a page with no DOM but the two things it touches (window's events and
// `<html data-service-sdk>`), importing an SDK module from a data: URL: what the SDK reads while
// it starts is what the host's configuration says. One load per file: once per page load.
import { afterAll, expect, it, vi } from "vitest";
import { browserServiceConfiguration } from "./sdk-config.js";
import { loadServiceSdk } from "./sdk-events.js";

afterAll(() => {
  vi.unstubAllGlobals();
});

/** An SDK module that keeps the configuration as it was when it evaluated, then says ready. */
const SDK_MODULE = `
const seen = structuredClone(window.serviceConfiguration);
const nothing = () => {};
export default {
  seen,
  openValuation: nothing,
  openPayment: nothing,
  updatePaymentSelected: nothing,
  paymentOptionDetailsFor: async () => ({}),
  addReadyToPlaceOrderListener: nothing,
  hasActiveTradeIn: () => false,
};
queueMicrotask(() => window.dispatchEvent(new Event("service-ready")));
`;

it("sets window.serviceConfiguration before importing the SDK: every key of the host's configuration but the SDK's address, teaser selectors included", async () => {
  const html = { dataset: {} as Record<string, string> };
  vi.stubGlobal("window", new EventTarget());
  vi.stubGlobal("document", { documentElement: html });
  const config = {
    ...browserServiceConfiguration(
      "https://shop.example",
      { callbacks: "/api/service", confirmation: "/checkout/confirmation" },
      {},
      { cartSummaryCssSelector: "#summary" },
    ),
    sdkUrl: `data:text/javascript,${encodeURIComponent(SDK_MODULE)}`,
  };

  const sdk = (await loadServiceSdk(config)) as unknown as { seen: Record<string, unknown> };

  const { sdkUrl: _notConfiguration, ...configuration } = config;
  expect(sdk.seen).toEqual(configuration);
  expect(sdk.seen.cartSummaryCssSelector).toBe("#summary");
  expect(window.Service).toBe(sdk);
  expect(html.dataset.serviceSdk).toBe("ready");
});
