// Types of scripts/lib/step-graph.mjs for the TypeScript that imports it (its test).
export interface Step {
  id: string;
  title: string;
  needs?: string[];
  holds?: string[];
  run: (logFile: string, context: { wrap?: Wrap }) => Promise<void>;
}
export type Wrap = (file: string, args: string[]) => [string, string[]];
export interface StepResult {
  outcome: "passed" | "failed" | "skipped";
  seconds?: number;
  /** the step's cgroup's CPU-seconds, when runGraph was given `cpu` */
  cpuSeconds?: number;
  reason?: string;
}
export function runGraph(
  steps: Step[],
  options: {
    slots: number;
    logDir: string;
    cpu?: { group(id: string): { wrap: Wrap; seconds(): number } } | null;
    print?: (text: string) => void;
  },
): Promise<Map<string, StepResult>>;
export function command(
  logFile: string,
  file: string,
  args: string[],
  options?: import("node:child_process").SpawnOptions & { wrap?: Wrap },
): Promise<void>;
