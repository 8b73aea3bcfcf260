// Reads Playwright's JSON report into one flat list of test outcomes.
import { readFileSync } from "node:fs";
import type { SuiteName } from "./contract-items";

export type Outcome = "passed" | "failed" | "skipped";

export interface TestOutcome {
  suite: SuiteName;
  file: string;
  /** describe titles and the test title, joined with " › " */
  title: string;
  /** the Playwright project, when the suite runs the same test in several (service variants) */
  project?: string;
  outcome: Outcome;
  durationMs: number;
  /** the first lines of the error, for a failure */
  error?: string;
  /** for a failure on the test's time limit: what it was waiting for when time ran out */
  timedOutWaitingFor?: string;
  /** why it did not run, for a skip */
  reason?: string;
  /** runs only with the bundled emulator (its control API, test page, seed or magic devices) */
  needsEmulator: boolean;
}

interface JsonResult {
  status: string;
  duration: number;
  error?: { message?: string };
  errors?: { message?: string }[];
}
interface JsonTest {
  status: "expected" | "unexpected" | "flaky" | "skipped";
  projectName?: string;
  annotations?: { type: string; description?: string }[];
  results: JsonResult[];
}
interface JsonSpec {
  title: string;
  file: string;
  tags?: string[];
  tests: JsonTest[];
}
interface JsonSuite {
  title: string;
  file?: string;
  specs?: JsonSpec[];
  suites?: JsonSuite[];
}
export interface JsonReport {
  suites?: JsonSuite[];
  errors?: { message?: string }[];
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: strips terminal colour codes
const ANSI = /\u001b\[[0-9;]*m/g;
const firstLines = (text: string | undefined) =>
  (text ?? "").replace(ANSI, "").split("\n").slice(0, 6).join("\n").trim();

/**
 * What a test that ran out of time was waiting for: the pending call's "waiting for …" line of
 * Playwright's call log, else the first line of its error. A verdict on the candidate needs it:
 * a timeout waiting for the SDK's event is the build's; one waiting for a page to load on a
 * busy machine is not.
 */
export function waitingFor(result: JsonResult): string {
  const messages = [result.error?.message, ...(result.errors ?? []).map((e) => e.message)]
    .filter((m): m is string => typeof m === "string")
    .map((m) => m.replace(ANSI, ""));
  for (const message of messages) {
    const waiting = /waiting for (.+)/.exec(message)?.[1];
    if (waiting) return waiting.trim();
  }
  const pending = messages
    .flatMap((m) => m.split("\n"))
    .map((line) => line.trim())
    .find((line) => line && !/^Test timeout of \d+ms exceeded/.test(line));
  return pending ?? "nothing named (the test's own code)";
}

export function readReport(file: string): JsonReport {
  return JSON.parse(readFileSync(file, "utf8")) as JsonReport;
}

export function outcomes(report: JsonReport, suite: SuiteName): TestOutcome[] {
  const list: TestOutcome[] = [];
  const walk = (node: JsonSuite, parents: string[], top: boolean) => {
    // The top level suite is the file; nested ones are describe blocks.
    const path = top ? [] : [...parents, node.title];
    for (const spec of node.specs ?? []) {
      for (const test of spec.tests) {
        const title = [...path, spec.title].join(" › ");
        const last = test.results.at(-1);
        const outcome: Outcome =
          test.status === "skipped" ? "skipped" : test.status === "expected" ? "passed" : "failed";
        const skip = test.annotations?.find((a) => a.type === "skip" || a.type === "fixme");
        list.push({
          suite,
          file: spec.file,
          title,
          ...(test.projectName ? { project: test.projectName } : {}),
          outcome,
          durationMs: test.results.reduce((sum, r) => sum + r.duration, 0),
          ...(outcome === "failed"
            ? {
                error: firstLines(
                  last?.error?.message ?? last?.errors?.[0]?.message ?? `status ${test.status}`,
                ),
              }
            : {}),
          ...(outcome === "failed" && last?.status === "timedOut"
            ? { timedOutWaitingFor: waitingFor(last) }
            : {}),
          ...(outcome === "skipped" ? { reason: skip?.description ?? "skipped" } : {}),
          needsEmulator:
            suite === "sdk-page" ||
            title.includes("@emulator") ||
            (spec.tags ?? []).includes("@emulator"),
        });
      }
    }
    for (const child of node.suites ?? []) walk(child, path, false);
  };
  for (const file of report.suites ?? []) walk(file, [], true);
  return list;
}

/** Every test of a listing (`playwright test --list --reporter=json`), reported as skipped. */
export function skippedAll(report: JsonReport, suite: SuiteName, reason: string): TestOutcome[] {
  return outcomes(report, suite).map((t) => {
    const { error: _error, ...rest } = t;
    return { ...rest, outcome: "skipped", durationMs: 0, reason };
  });
}
