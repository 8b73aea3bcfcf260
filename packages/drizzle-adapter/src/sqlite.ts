// @service-integration/drizzle-adapter/sqlite: the integration's tables on SQLite and the
// adapter over them (better-sqlite3).
export type { DrizzleServiceAdapter } from "./core.js";
export {
  drizzleServiceAdapter,
  type SqliteAdapterOptions,
  type SqliteOrdersTable,
  type SqliteQueries,
  sqliteTransaction,
} from "./sqlite/adapter.js";
export * from "./sqlite/schema.js";
