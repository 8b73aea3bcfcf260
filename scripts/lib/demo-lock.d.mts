// Types of scripts/lib/demo-lock.mjs for the TypeScript that imports it (scripts/demo-beside-tests.ts).
export interface DemoAddresses {
  shopUrl: string;
  shopPort: number;
  emulatorUrl: string;
  emulatorPort: number;
}
export interface RunningDemo extends DemoAddresses {
  pid: number;
  startedAt: string;
}
export const DEMO_LOCK: string;
export function demoAddresses(env?: Record<string, string | undefined>): DemoAddresses;
export function runningDemo(file?: string): RunningDemo | null;
export function claimDemo(addresses: DemoAddresses, file?: string): RunningDemo | null;
export function releaseDemo(file?: string): void;
export function portTaken(port: number): Promise<boolean>;
