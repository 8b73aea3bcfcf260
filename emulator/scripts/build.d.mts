// Types of emulator/scripts/build.mjs.
export const DIST: string;
export const CLI: string;
export function buildEmulator(): Promise<{ cli: string; ms: number }>;
export const NOTICES: string;
