export const here: string;
export const SERVICE_MODELS: string;
export const PROVIDERS: readonly ["sqlite", "postgresql"];
export const INITIAL: string;
export const MIGRATIONS: readonly string[];
export function modelsAt(name: string): string;
export function migrationSql(
  provider: "sqlite" | "postgresql",
  name: string,
  databaseUrl?: string,
): string;
export function sqlFromEmpty(folder: string, databaseUrl?: string): string;
export function initialMigrationSql(
  provider: "sqlite" | "postgresql",
  databaseUrl?: string,
): string;
export function testSchemaFolder(provider: "sqlite" | "postgresql"): string;
export function generateTestClients(): void;
