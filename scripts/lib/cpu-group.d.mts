// Types of scripts/lib/cpu-group.mjs for the TypeScript that imports it (its test).
export interface CpuGroup {
  dir: string;
  wrap(file: string, args: string[]): [string, string[]];
  /** CPU-seconds of every process that was ever in the group */
  seconds(): number;
}
export function cpuGroups(
  name: string,
  options?: { root?: string },
): { group(id: string): CpuGroup; close(): void } | null;
