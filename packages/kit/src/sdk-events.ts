/**
 * The service's front-end SDK as the shop's client code sees it (contract: Front-end SDK,
 * methods and SDK browser events). Client-safe: no node: imports. One module-level promise
 * answers "is the SDK ready?" for every component, whichever effect runs first (React runs a
 * child's effects before its parent's, so the checkout's option may ask before the layout's
 * loader started).
 */
import type { BrowserServiceConfiguration } from "./sdk-config.js";

/** The methods the contract names; the SDK is another party's code, so each is checked. */
export interface ServiceSdk {
  /** Opens the valuation wizard. */
  openValuation(): unknown;
  /** Opens the payment modal (the checkout's submit with Service Pay selected). */
  openPayment(): unknown;
  /** Tells the SDK whether the Service Pay option is selected. */
  updatePaymentSelected(selected: boolean): unknown;
  /** The payment option details of `product` (`ep1`: Service Pay); read them with
   *  parsePaymentOptionDetails. */
  paymentOptionDetailsFor(product: string): Promise<unknown>;
  /** Registers the merchant's ready-to-place-order listener (pending order mode): the SDK
   *  awaits it before the payment completes. */
  addReadyToPlaceOrderListener(callback: (detail: ReadyToPlaceOrderDetail) => unknown): unknown;
  /** Whether the shopper holds an accepted trade-in. */
  hasActiveTradeIn(): boolean;
}

/** detail of ready-to-place-order: the contract says "object with message"; cart_id and
 *  order_id are read when present. */
export interface ReadyToPlaceOrderDetail {
  /** The event's message. */
  message?: string;
  /** The checkout's cart id, when the SDK sends it. */
  cart_id?: string;
  /** The service's order id, when the SDK sends it. */
  order_id?: string;
}

/** Contract, Events › SDK browser events. */
export const SERVICE_EVENTS = {
  /** The SDK loaded and initialised (no detail). */
  ready: "service-ready",
  /** A valuation was updated (accepted, changed). */
  valuationUpdated: "service-valuation-updated",
  /** A payment completed successfully. */
  paymentCompleted: "service-payment-completed",
  /** The valuation or payment modal closed. */
  modalClosed: "service-modal-closed",
  /** The trade-in is accepted and the order can be created (pending order mode). */
  readyToPlaceOrder: "service-ready-to-place-order",
  /** The purchase information was updated. */
  purchaseUpdated: "service-purchase-updated",
  /** The shopper selected Service Pay (detail: the modal's payload). */
  paymentMethodSelected: "servicepay-payment-method-selected",
  /** The shopper deselected Service Pay (no detail). */
  paymentMethodUnselected: "servicepay-payment-method-unselected",
  /** A new user started a valuation. */
  newUserValuationStarted: "service-new-user-valuation-started",
} as const;

/** All nine event names. */
export const ALL_SERVICE_EVENTS = Object.values(SERVICE_EVENTS);

declare global {
  interface Window {
    Service?: ServiceSdk;
    serviceConfiguration?: Record<string, unknown>;
  }
}

const METHODS = [
  "openValuation",
  "openPayment",
  "updatePaymentSelected",
  "paymentOptionDetailsFor",
  "addReadyToPlaceOrderListener",
  "hasActiveTradeIn",
] as const;

/** Whether `value` has every method the contract names (the SDK module's export, checked). */
export function isServiceSdk(value: unknown): value is ServiceSdk {
  return (
    typeof value === "object" &&
    value !== null &&
    METHODS.every((m) => typeof (value as Record<string, unknown>)[m] === "function")
  );
}

let settle: (sdk: ServiceSdk | null) => void = () => {};
const sdkReady = new Promise<ServiceSdk | null>((resolve) => {
  settle = resolve;
});
let started = false;

/** `<html data-service-sdk>`: loading | ready | unavailable (for styles and tests). */
function mark(state: "loading" | "ready" | "unavailable") {
  document.documentElement.dataset.serviceSdk = state;
}

let sdkUrlLoaded: string | null = null;

/**
 * The service's payment icon (contract: Payment option markup, "it must contain the service's
 * payment icon"): the service serves it beside its SDK, at `{assets_url}/v1/service-pay.svg`.
 * null before the SDK was asked for.
 */
export function servicePaymentIconUrl(): string | null {
  return sdkUrlLoaded ? new URL("service-pay.svg", sdkUrlLoaded).href : null;
}

/**
 * Loads the SDK once per page load: sets `window.serviceConfiguration` BEFORE the import (the SDK
 * reads it while starting), imports `{assets_url}/v1/main.js`, stores it as `window.Service` and
 * resolves after `service-ready`. When it cannot load (service down, blocked, not an SDK), it
 * resolves null: the shop keeps working and the service's option is simply absent.
 */
export function loadServiceSdk(config: BrowserServiceConfiguration): Promise<ServiceSdk | null> {
  if (started) return sdkReady;
  started = true;
  sdkUrlLoaded = config.sdkUrl;
  mark("loading");
  const { sdkUrl, ...configuration } = config;
  window.serviceConfiguration = configuration;
  // Listening before the import: the event can fire as soon as the module has evaluated.
  const readyEvent = new Promise<void>((resolve) => {
    window.addEventListener(SERVICE_EVENTS.ready, () => resolve(), { once: true });
  });
  void (async () => {
    try {
      const module = (await import(
        /* webpackIgnore: true */ /* turbopackIgnore: true */ sdkUrl
      )) as { default?: unknown; Service?: unknown };
      const sdk = module.default ?? module.Service;
      if (!isServiceSdk(sdk)) throw new Error("the module at the SDK address is not the SDK");
      window.Service = sdk;
      await readyEvent;
      mark("ready");
      settle(sdk);
    } catch (error) {
      // A warning, not an error: the shop works without the service (contract, Front-end SDK:
      // the page must not depend on the SDK loading).
      console.warn("[shop] the service's SDK could not be loaded; continuing without it", error);
      mark("unavailable");
      settle(null);
    }
  })();
  return sdkReady;
}

/** The SDK once `service-ready` fired, or null when it could not load. */
export function whenServiceReady(): Promise<ServiceSdk | null> {
  return sdkReady;
}

/** Adds a listener for one of the SDK's window events; returns the unsubscribe function. */
export function onServiceEvent(name: string, listener: (detail: unknown) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent).detail ?? null);
  window.addEventListener(name, handler);
  return () => window.removeEventListener(name, handler);
}
