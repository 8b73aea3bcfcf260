// Types of scripts/postgres.mjs for the TypeScript that imports it (tests, benchmarks).
export const POSTGRES_PORT: number;
export function postgresUrl(database: string): string;
export function ensurePostgresInstalled(): string;
export function startPostgres(): boolean;
export function stopPostgres(): void;
export function createDatabases(names: string[]): Promise<void>;
export function resetDatabases(names: string[]): Promise<void>;
