// @service-integration/drizzle-adapter: what both dialects share, the shop's callbacks.
// The schema and the adapter of each database: "./pg" and "./sqlite".
export type {
  CreateOrderParams,
  NewOrderColumns,
  ShopCallbacks,
  TokenSealer,
} from "./callbacks.js";
export type { DrizzleServiceAdapter } from "./core.js";
