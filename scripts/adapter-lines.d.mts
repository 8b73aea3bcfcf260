// Types of scripts/adapter-lines.mjs for the TypeScript that imports it (its test).
export const LIMIT: number;
export const ADAPTERS: string[];
export function codeLines(text: string): Set<number>;
export function adapterLines(adapter: string): {
  adapter: string;
  files: { file: string; code: number; lines: number }[];
  code: number;
  lines: number;
};
