// @service-integration/kit — the environment-neutral part of the integration: the contract's
// resources and schemas, errors, the Cart builder, the payment option's rules and the SDK's event
// names, and the ports a shop implements (shop-ports.ts). Nothing here touches the server's
// secrets or React, so it is safe in a server module, a client component and plain Node alike.
// Server code: "@service-integration/kit/server"; client components: "…/react"; tests: "…/testing".
export * from "./cart.js";
export * from "./errors.js";
export * from "./host-defaults.js";
export * from "./payment-option.js";
export * from "./purchase-data.js";
export * from "./resources.js";
export * from "./sdk-events.js";
export * from "./service-adapter.js";
export * from "./service-rows.js";
export * from "./shop-callbacks.js";
export * from "./shop-ports.js";
export * from "./shopper-data.js";
export * from "./shopper-texts.js";
export * from "./sqlite-connection.js";
export * from "./trade-in.js";
export * from "./webhook-payload.js";
export * from "./well-formed.js";
