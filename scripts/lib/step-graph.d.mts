// Types of scripts/lib/step-graph.mjs for the TypeScript that imports it (its test).
export interface Step {
  id: string;
  title: string;
  needs?: string[];
  holds?: string[];
  run: (logFile: string) => Promise<void>;
}
export interface StepResult {
  outcome: "passed" | "failed" | "skipped";
  seconds?: number;
  reason?: string;
}
export function runGraph(
  steps: Step[],
  options: { slots: number; logDir: string; print?: (text: string) => void },
): Promise<Map<string, StepResult>>;
export function command(
  logFile: string,
  file: string,
  args: string[],
  options?: import("node:child_process").SpawnOptions,
): Promise<void>;
