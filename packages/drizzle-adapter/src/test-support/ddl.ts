// The DDL the tests create their databases with, generated from the Drizzle schema by
// drizzle-kit's programmatic API (never a second, hand-written copy of the tables).
import {
  generateDrizzleJson,
  generateMigration,
  generateSQLiteDrizzleJson,
  generateSQLiteMigration,
} from "drizzle-kit/api";

/** CREATE statements for PostgreSQL of every table in `tables`. */
export async function pgDdl(tables: Record<string, unknown>): Promise<string[]> {
  return generateMigration(generateDrizzleJson({}), generateDrizzleJson(tables));
}

/** CREATE statements for SQLite of every table in `tables`. */
export async function sqliteDdl(tables: Record<string, unknown>): Promise<string[]> {
  return generateSQLiteMigration(
    await generateSQLiteDrizzleJson({}),
    await generateSQLiteDrizzleJson(tables),
  );
}
