// Types of scripts/lib/processes.mjs for the TypeScript that imports it (the staging check).
import type { ChildProcessWithoutNullStreams } from "node:child_process";

export function start(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): ChildProcessWithoutNullStreams & { log(): string };
export function stop(child: ChildProcessWithoutNullStreams): Promise<void>;
export function freePort(): Promise<number>;
/** CPU milliseconds a process and its descendants have used (Linux /proc); NaN elsewhere. */
export function cpuMsOf(pid: number | undefined): number;
