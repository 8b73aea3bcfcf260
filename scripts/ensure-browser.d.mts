// Types of scripts/ensure-browser.mjs for the TypeScript that imports it (the SDK release runner,
// the page benchmarks).
export function ensureBrowser(kind?: "headless-shell" | "full"): string;
