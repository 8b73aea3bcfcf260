// Types of scripts/lib/bench-database.mjs for the TypeScript that imports it (webhook-apply-cost).
import type Database from "better-sqlite3";

export function createBenchDatabase(
  file: string,
  options: { appDir: string; orders: number; seed?: (db: Database.Database) => void },
): void;
