// @service-integration/drizzle-adapter/pg: the integration's tables on PostgreSQL and the
// adapter over them (node-postgres).
export type { DrizzleServiceAdapter } from "./core.js";
export {
  drizzleServiceAdapter,
  type PgAdapterOptions,
  type PgOrdersTable,
  type PgQueries,
} from "./pg/adapter.js";
export * from "./pg/schema.js";
