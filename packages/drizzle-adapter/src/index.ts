// @service-integration/drizzle-adapter: what both dialects share; the schema and the adapter of
// each database: "./pg" and "./sqlite". The shop's callbacks are the kit's types (ShopCallbacks).
export type { ShopCallbacks, TokenSealer } from "@service-integration/kit";
export type { CreateOrderParams, DrizzleServiceAdapter, NewOrderColumns } from "./core.js";
