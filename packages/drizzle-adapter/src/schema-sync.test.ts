// The two dialects' schemas are two definitions of one set of tables: the same tables, columns,
// NOT NULLs, defaults, primary and unique keys and indexes, so the adapter's one core (core.ts)
// reads and writes the same rows on either database, and a key one of them relies on is not
// missing from the other (shop-ports.ts names each key the ports rely on).
import { getTableConfig as pgConfig } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteConfig } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as pg from "./pg/schema.js";
import * as sqlite from "./sqlite/schema.js";

type Config = ReturnType<typeof pgConfig> | ReturnType<typeof sqliteConfig>;

/** A table as both dialects can state it: names, nullability, defaults, keys, indexes. */
function shape(config: Config) {
  return {
    name: config.name,
    columns: config.columns.map((c) => ({
      key: c.name,
      notNull: c.notNull,
      hasDefault: c.hasDefault || c.primary,
      primary: c.primary,
      unique: c.isUnique,
    })),
    indexes: config.indexes.map((i) => ({
      name: i.config.name,
      on: i.config.columns.map((c) => ("name" in c ? c.name : "?")),
    })),
  };
}

describe("the PostgreSQL and SQLite schemas", () => {
  it("define the same integration tables, columns, keys, defaults and indexes", () => {
    const pgTables = Object.values(pg.serviceSchema).map((t) => shape(pgConfig(t)));
    const sqliteTables = Object.values(sqlite.serviceSchema).map((t) => shape(sqliteConfig(t)));
    expect(pgTables.map((t) => t.name)).toEqual([
      "service_tokens",
      "service_leases",
      "service_checkouts",
      "service_notifications",
      "service_trade_in_registrations",
      "service_session_trade_ins",
      "service_order_history",
      "service_integration_log",
    ]);
    expect(sqliteTables).toEqual(pgTables);
  });

  it("give the shop's orders the same columns, with cart_id and service_order_id unique", () => {
    const columns = (built: Record<string, { config: Record<string, unknown> }>) =>
      Object.entries(built).map(([key, b]) => ({
        key,
        name: b.config.name,
        notNull: b.config.notNull,
        unique: b.config.isUnique,
        hasDefault: b.config.hasDefault,
      }));
    const onPg = columns(pg.serviceOrderColumns() as never);
    expect(columns(sqlite.serviceOrderColumns() as never)).toEqual(onPg);
    expect(onPg.filter((c) => c.unique).map((c) => c.name)).toEqual([
      "cart_id",
      "service_order_id",
    ]);
  });
});
