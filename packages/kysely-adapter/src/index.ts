// @service-integration/kysely-adapter: what both databases share (the shop's callbacks' types,
// the tables' Kysely types); the SQL and the adapter of each database: "./pg" and "./sqlite".
export type {
  CreateOrderParams,
  NewOrderColumns,
  ShopCallbacks,
  TokenSealer,
} from "@service-integration/kit";
export type { KyselyAdapterOptions, KyselyServiceAdapter } from "./core.js";
export type * from "./schema.js";
