// Types of emulator/scripts/pack.mjs for the TypeScript that imports it (the packed tool's test).
import type { ChildProcess } from "node:child_process";

export const PACK_DIR: string;
export function packEmulator(): Promise<string>;
export function installPacked(tgz: string, dir: string): string;
export interface PackedEmulator {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM; resolves with the exit code once it has exited. */
  stop(): Promise<number | null>;
}
export function startPacked(
  bin: string,
  args: string[],
  options?: { cwd?: string },
): Promise<PackedEmulator>;
