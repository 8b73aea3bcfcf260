// Types of scripts/lib/lockfile-subset.mjs for the TypeScript that imports it (its test).
type Entry = Record<string, unknown> & { version?: string; integrity?: string };
export function lockfileFor(
  rootLock: { packages: Record<string, Record<string, unknown>> },
  manifest: { name: string; version: string; dependencies: Record<string, string> },
  local?: Record<string, { resolved: string; manifest: Record<string, unknown> }>,
  options?: { peers?: boolean },
): { lockfileVersion: 3; packages: Record<string, Entry> };
