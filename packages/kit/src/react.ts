// @service-integration/kit/react — the browser side (contract: Front-end SDK, Payment option):
// the SDK loader, the payment option radio, the confirmation page's status watcher and the
// accepted trade-in's value for the shop's own amounts. Each module carries its own
// "use client" directive, so a server component may render these components directly.
export * from "./active-trade-in.js";
export * from "./payment-option-radio.js";
export * from "./payment-status-watcher.js";
export * from "./sdk-loader.js";
