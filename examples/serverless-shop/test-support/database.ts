// The shop's tables as its deploy step makes them: every shipped migration of drizzle/, in
// order, as statements (for `freshPostgresDatabase` of the Drizzle adapter's /testing).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const drizzleFolder = path.join(import.meta.dirname, "../drizzle");

export const shippedMigrations: string[] = readdirSync(drizzleFolder)
  .filter((name) => name.endsWith(".sql"))
  .sort()
  .flatMap((name) =>
    readFileSync(path.join(drizzleFolder, name), "utf8").split("--> statement-breakpoint"),
  )
  .map((statement) => statement.trim())
  .filter(Boolean);
