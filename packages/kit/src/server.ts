// @service-integration/kit/server — the server side of the integration: tokens and the API
// client, the merchant endpoints (shopper_data, purchase_data), the webhook and its inbox,
// register-purchase, order updates, reconciliation and the inspector's log. Every module here
// starts with `import "server-only"`: a client component that imports this entry fails its build
// instead of shipping credentials to the browser. Outside a React server environment (a script,
// a test runner) run Node with `--conditions=react-server`, or alias `server-only` to its
// empty.js as this repository's vitest.config.ts does.
import "server-only";

export * from "./accepted-valuation.js";
export * from "./after-response.js";
export * from "./callbacks.js";
export * from "./card-trade-in.js";
export * from "./client.js";
export * from "./config.js";
export * from "./guest-identity.js";
export * from "./http.js";
export * from "./inspector-feed.js";
export * from "./integration-log.js";
export * from "./notification-inbox.js";
export * from "./order-updates.js";
export * from "./order-webhook.js";
export * from "./pending-order.js";
export * from "./process-singleton.js";
export * from "./reconciliation.js";
export * from "./register-purchase.js";
export * from "./request-body.js";
export * from "./route-responses.js";
export * from "./scheduled-jobs.js";
export * from "./sdk-config.js";
export * from "./service-routes.js";
export * from "./service-wiring.js";
export * from "./session-hash.js";
export * from "./session-lookup.js";
export * from "./token-sealing.js";
export * from "./tokens.js";
export * from "./webhook-signature.js";
