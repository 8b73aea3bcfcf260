// Types of scripts/integration-figures.mjs for the TypeScript that imports it (its test).
export const CONCERNS: { name: string; holds: string; match: (file: string) => boolean }[];
export function countByConcern(): { name: string; holds: string; lines: number }[];
export function figuresTable(): string;
export function withFigures(doc: string): string;
export const INTEGRATION: string[];
