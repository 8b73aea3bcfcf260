// StrykerJS's mutants of emulator/sdk that no test can tell from the original, each with why in
// one line (./sampled-mutants.ts). A survivor of a sampled run is either listed here or killed
// by a new test. Matched by file, mutator, and the exact original and replacement text, so an
// entry follows its code when lines move, and stops matching when the code changes.
import type { SdkMutant } from "./sampled-mutants";

export interface EquivalentMutant {
  file: string;
  mutator: string;
  original: string;
  replacement: string;
  why: string;
}

export const EQUIVALENT_MUTANTS: EquivalentMutant[] = [];

export function equivalenceOf(
  mutant: Pick<SdkMutant, "file" | "mutator" | "original" | "replacement">,
): string | undefined {
  return EQUIVALENT_MUTANTS.find(
    (e) =>
      e.file === mutant.file &&
      e.mutator === mutant.mutator &&
      e.original === mutant.original &&
      e.replacement === mutant.replacement,
  )?.why;
}
