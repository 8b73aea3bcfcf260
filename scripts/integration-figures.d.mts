// Types of scripts/integration-figures.mjs for the TypeScript that imports it (its test).
export type HostName = "minimal-shop" | "serverless-shop";
export const HOSTS: Record<
  HostName,
  {
    dir: string;
    quickStart?: string;
    concerns: { name: string; holds: string; match: (file: string) => boolean }[];
  }
>;
export function countByConcern(host?: HostName): { name: string; holds: string; lines: number }[];
export function figuresTable(host?: HostName): string;
export function adapterLinesTable(): string;
export function withFigures(doc: string): string;
