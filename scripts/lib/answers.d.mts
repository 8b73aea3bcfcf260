// Types of scripts/lib/answers.mjs for the TypeScript that imports it (its test).
export function answers(
  url: string,
  options?: { timeoutMs?: number; onStage?: (stage: string) => void },
): Promise<boolean>;
