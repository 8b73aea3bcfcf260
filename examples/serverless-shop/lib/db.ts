import "server-only";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "./schema";

// One small pool per instance: a serverless platform runs many instances, each holding at most
// `max` connections, so keep it low (or put a pooler such as PgBouncer in front). Migrations run
// before a release (scripts/migrate.mjs), never here.
export type ShopDb = NodePgDatabase<typeof schema>;

const state = globalThis as { shopDb?: ShopDb };

export function db(): ShopDb {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is required");
  state.shopDb ??= drizzle(new pg.Pool({ connectionString: url, max: 5 }), { schema });
  return state.shopDb;
}
