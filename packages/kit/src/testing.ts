// @service-integration/kit/testing — for a host's tests, never for production code: the
// shop-ports conformance suite a host runs on its adapter (docs/integrating.md), a fake fetch
// and clock for the HTTP transport, an in-memory TokenStore and fake valuation clients. It uses
// vitest (an optional peer dependency) and the server side, so run it where `server-only`
// resolves to its empty module: in vitest.config.ts, `conformanceVitestConfig()` of
// `@service-integration/kit/testing/config` (or `--conditions=react-server`).

export * from "./test-support/adapter-test-shop.js";
export * from "./test-support/conformance-ports.js";
export * from "./test-support/fake-transport.js";
export * from "./test-support/fresh-database.js";
export * from "./test-support/memory-token-store.js";
export * from "./test-support/payment-window.js";
export * from "./test-support/row-lock-checks.js";
export * from "./test-support/shop-ports-conformance.js";
export * from "./test-support/status-names.js";
export * from "./test-support/valuation-client.js";
