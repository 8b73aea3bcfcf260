// `npm run mutants:sdk -- --sample N --seed S`: an impartial score of the SDK release suite.
// The mutants are not written by us: StrykerJS's instrumenter (the mutation tool of the ecosystem)
// generates every mutant of emulator/sdk and places them all in one copy of the SDK, each behind a
// switch (`__stryker__.activeMutant`, StrykerJS's mutant schemata). A seeded random sample of
// them is then judged against the release suite:
//
// 1. Control and coverage: the whole suite runs once against the instrumented SDK with no mutant
//    active. It must pass (else no kill below means anything), and every test records which
//    mutants its pages reached (./sdk-coverage.ts).
// 2. Each sampled mutant: the SDK with that one switch on, judged by the tests that reached it,
//    stopping at the first failure: first those of the staging run (what `--no-emulator` runs,
//    ./selection.ts), then the rest. A mutant no test reached survives without a run.
// 3. Survivors are triaged in ./equivalent-mutants.ts: a mutant no test can tell from the
//    original, with why in one line. The rest are reported as survivors, and the run fails.
//
// Writes mutants-report/sample-<seed>.md and .json.
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Instrumenter } from "@stryker-mutator/instrumenter";
import { buildSdk } from "../../emulator/src/assets/build-sdk";
import { mulberry32 } from "../../emulator/src/faults";
import type { SuiteName } from "./contract-items";
import { equivalenceOf } from "./equivalent-mutants";
import { failedTests, ROOT, runRelease } from "./run";
import type { TestCoverage } from "./sdk-coverage";
import { STAGING_SELECTION } from "./selection";

const SDK_DIR = path.join(ROOT, "emulator/sdk");

export interface SdkMutant {
  /** StrykerJS's id, stable for the same SDK source */
  id: string;
  /** relative to emulator/sdk */
  file: string;
  /** 1-based */
  line: number;
  mutator: string;
  /** the source text the mutant replaces */
  original: string;
  replacement: string;
}

const silent = () => false;
const quietLogger = {
  isTraceEnabled: silent,
  isDebugEnabled: silent,
  isInfoEnabled: silent,
  isWarnEnabled: silent,
  isErrorEnabled: silent,
  isFatalEnabled: silent,
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  fatal() {},
};

/** The SDK's source files the instrumenter mutates: its TypeScript, not its build options. */
export function sdkSourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
    .sort();
}

/** Lines and columns (0-based, as StrykerJS's locations are) to the text between them. */
export function textAt(
  source: string,
  start: { line: number; column: number },
  end: { line: number; column: number },
): string {
  const lines = source.split("\n");
  if (start.line === end.line) return (lines[start.line] ?? "").slice(start.column, end.column);
  return [
    (lines[start.line] ?? "").slice(start.column),
    ...lines.slice(start.line + 1, end.line),
    (lines[end.line] ?? "").slice(0, end.column),
  ].join("\n");
}

/**
 * Every mutant of emulator/sdk, placed in a copy of it, and that copy built as the SDK bundle
 * (no mutant active). The copy is removed afterwards.
 */
export async function instrumentSdk(): Promise<{ mutants: SdkMutant[]; code: string }> {
  const work = mkdtempSync(path.join(tmpdir(), "sdk-instrumented-"));
  try {
    cpSync(SDK_DIR, work, { recursive: true });
    const names = sdkSourceFiles(work);
    const sources = new Map(
      names.map((name) => [name, readFileSync(path.join(work, name), "utf8")]),
    );
    const instrumenter = new Instrumenter(quietLogger);
    const result = await instrumenter.instrument(
      names.map((name) => ({
        name: path.join(work, name),
        content: sources.get(name) ?? "",
        mutate: true,
      })),
      { plugins: null, excludedMutations: [], ignorers: [] },
    );
    for (const file of result.files) writeFileSync(file.name, file.content);
    const mutants = result.mutants
      .filter((m) => m.status !== "Ignored")
      .map((m): SdkMutant => {
        const file = path.basename(m.fileName);
        return {
          id: m.id,
          file,
          line: m.location.start.line + 1,
          mutator: m.mutatorName,
          original: textAt(sources.get(file) ?? "", m.location.start, m.location.end),
          replacement: m.replacement,
        };
      });
    const bundle = await buildSdk(path.join(work, "main.ts"));
    return { mutants, code: bundle.code };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The instrumented bundle with one mutant switched on (before any of the SDK's code runs). */
export function withActiveMutant(code: string, id: string): string {
  return `(globalThis.__stryker__ = globalThis.__stryker__ || {}).activeMutant = ${JSON.stringify(id)};\n${code}`;
}

/** `size` mutants drawn at random with `seed` (a partial Fisher-Yates shuffle). */
export function sampleOf<T>(items: readonly T[], size: number, seed: number): T[] {
  const pool = [...items];
  // The emulator's seeded generator (its probabilistic faults): the same seed draws the same sample.
  const next = mulberry32(seed);
  const count = Math.min(size, pool.length);
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(next() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
  }
  return pool.slice(0, count);
}

export interface CoveringTest extends TestCoverage {
  suite: SuiteName;
}

/** Every test's coverage file of the control run, by mutant id. */
export function readCoverage(
  dir: string,
  leftOut: ReadonlySet<string> = new Set(),
): Map<string, CoveringTest[]> {
  const byMutant = new Map<string, CoveringTest[]>();
  for (const suite of ["sdk-page", "storefront"] as const) {
    const suiteDir = path.join(dir, suite);
    let files: string[] = [];
    try {
      files = readdirSync(suiteDir);
    } catch {
      continue;
    }
    for (const name of files) {
      const test: CoveringTest = {
        ...(JSON.parse(readFileSync(path.join(suiteDir, name), "utf8")) as TestCoverage),
        suite,
      };
      if (leftOut.has(`${suite}: ${test.title}`)) continue;
      for (const id of test.mutants) {
        const list = byMutant.get(id) ?? [];
        list.push(test);
        byMutant.set(id, list);
      }
    }
  }
  return byMutant;
}

/** The tests the staging run may run (./selection.ts): the storefront project's, whatever their
 *  title; those that need the service's control API skip themselves there. */
export function inStagingRun(test: Pick<CoveringTest, "suite" | "project">): boolean {
  return test.suite === "storefront" && test.project === "storefront";
}

/** Playwright's `file:line` filters of these tests, by suite. */
export function filtersOf(tests: CoveringTest[]): Partial<Record<SuiteName, string[]>> {
  const files: Partial<Record<SuiteName, string[]>> = {};
  for (const test of tests) {
    const list = files[test.suite] ?? [];
    const where = `${test.file}:${test.line}`;
    if (!list.includes(where)) list.push(where);
    files[test.suite] = list;
  }
  return files;
}

export interface SampledVerdict {
  mutant: SdkMutant;
  coveredBy: number;
  /** killed by a test of the staging run */
  byStaging: boolean;
  /** killed by the whole release suite */
  byWhole: boolean;
  killer?: string;
  /** why it cannot be told from the original (./equivalent-mutants.ts) */
  equivalent?: string;
  seconds: number;
  error?: string;
}

async function judge(
  mutant: SdkMutant,
  code: string,
  covering: CoveringTest[],
  out: string,
): Promise<SampledVerdict> {
  const started = Date.now();
  const verdict: SampledVerdict = {
    mutant,
    coveredBy: covering.length,
    byStaging: false,
    byWhole: false,
    seconds: 0,
  };
  const equivalent = equivalenceOf(mutant);
  if (equivalent) verdict.equivalent = equivalent;
  if (covering.length === 0) return verdict;
  const dir = path.join(out, `mutant-${mutant.id}`);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "main.js");
  writeFileSync(file, withActiveMutant(code, mutant.id));
  const run = async (tests: CoveringTest[], label: string, staging: boolean) => {
    const files = filtersOf(tests);
    const results = await runRelease({
      builds: [{ label: "candidate", source: file }],
      out: path.join(dir, label),
      ...(staging ? STAGING_SELECTION : {}),
      suites: Object.keys(files) as SuiteName[],
      files,
      maxFailures: 1,
      // a few journeys need no second storefront + emulator stack to start
      stacks: (files.storefront?.length ?? 0) > 3 ? 2 : 1,
      quiet: true,
    });
    const passed = new Set(
      results.flatMap((r) =>
        r.tests.filter((t) => t.outcome === "passed").map((t) => `${t.suite}: ${t.title}`),
      ),
    );
    return { killers: failedTests(results), passed };
  };
  try {
    // The staging run's share first, as --no-emulator runs it (./selection.ts): the journeys
    // that need the service's control API skip themselves there, and run with the rest.
    const staging = covering.filter(inStagingRun);
    let { killers, passed } =
      staging.length > 0
        ? await run(staging, "staging", true)
        : { killers: [] as string[], passed: new Set<string>() };
    verdict.byStaging = killers.length > 0;
    const rest = covering.filter((t) => !passed.has(`${t.suite}: ${t.title}`));
    if (!verdict.byStaging && rest.length > 0) ({ killers } = await run(rest, "rest", false));
    verdict.byWhole = killers.length > 0;
    if (killers[0]) verdict.killer = killers[0];
  } catch (error) {
    verdict.error = (error as Error).message;
  }
  verdict.seconds = (Date.now() - started) / 1000;
  return verdict;
}

const cell = (text: string) =>
  `\`${text.replace(/\s+/g, " ").slice(0, 60).replace(/`/g, "'").replace(/\|/g, "\\|")}\``;

export function sampleReport(
  verdicts: SampledVerdict[],
  info: {
    seed: number;
    size: number;
    total: number;
    seconds: number;
    leftOut?: string[];
    /** the sample was drawn from this SDK file's mutants only */
    module?: string;
  },
): { markdown: string; score: string; ok: boolean } {
  const within = info.module ? ` in ${info.module}` : "";
  const command = `npm run mutants:sdk -- --sample ${info.size} --seed ${info.seed}${info.module ? ` --module ${info.module}` : ""}`;
  // A mutant whose run failed to start (a port taken, a broken build) was never judged: neither
  // killed nor survived, and the score says so instead of counting it either way.
  const unjudged = verdicts.filter((v) => v.error);
  const judged = verdicts.filter((v) => !v.error);
  const counted = judged.filter((v) => !v.equivalent || v.byWhole);
  const killed = counted.filter((v) => v.byWhole).length;
  const killedStaging = counted.filter((v) => v.byStaging).length;
  const equivalent = judged.length - counted.length;
  const survivors = counted.filter((v) => !v.byWhole);
  const pct = (n: number) => (counted.length ? `${Math.round((100 * n) / counted.length)} %` : "–");
  const score =
    `seed ${info.seed}, ${verdicts.length} of ${info.total} mutants${within}: whole suite ${killed}/${counted.length} (${pct(killed)}), ` +
    `staging run ${killedStaging}/${counted.length} (${pct(killedStaging)}); ${equivalent} equivalent, ${survivors.length} survived` +
    (unjudged.length ? `; ${unjudged.length} NOT JUDGED (their runs failed: rerun the seed)` : "");
  const markdown = [
    `# SDK mutation score: a sample of StrykerJS's mutants (seed ${info.seed}${within})`,
    "",
    `${info.total} mutants of emulator/sdk${within} generated by StrykerJS's instrumenter; ${verdicts.length} drawn with seed ${info.seed} (\`${command}\`), judged in ${Math.round(info.seconds)} s.`,
    "",
    `- Whole release suite: **${killed} of ${counted.length} killed (${pct(killed)})**`,
    `- Staging run (what \`--no-emulator\` runs, ./selection.ts): **${killedStaging} of ${counted.length} killed (${pct(killedStaging)})**`,
    `- Equivalent (no test can tell them from the original; ./equivalent-mutants.ts): ${equivalent}`,
    `- Survived: ${survivors.length}${survivors.length ? ` (${survivors.map((v) => `#${v.mutant.id}`).join(", ")})` : ""}`,
    ...(unjudged.length
      ? [
          `- **Not judged: ${unjudged.length}** (${unjudged.map((v) => `#${v.mutant.id}`).join(", ")}): their runs failed before any test could judge them; the score above leaves them out and is not a score of this seed until it is run again.`,
        ]
      : []),
    "",
    ...(info.leftOut?.length
      ? [
          `Left out of the judging: ${info.leftOut.length} tests failed with no mutant active (a busy machine's time limits, or a flaky test): ${info.leftOut.join("; ")}.`,
          "",
        ]
      : []),
    "| # | Where | Mutator | Original → mutant | Tests reaching it | Whole suite | Staging run | First failing test, or why equivalent |",
    "|---|---|---|---|---|---|---|---|",
    ...verdicts.map((v) => {
      const whole = v.error
        ? `error: ${v.error.slice(0, 80)}`
        : v.byWhole
          ? "killed"
          : v.equivalent
            ? "equivalent"
            : v.coveredBy === 0
              ? "**SURVIVED** (no test reaches it)"
              : "**SURVIVED**";
      return `| ${v.mutant.id} | ${v.mutant.file}:${v.mutant.line} | ${v.mutant.mutator} | ${cell(v.mutant.original)} → ${cell(v.mutant.replacement)} | ${v.coveredBy} | ${whole} | ${v.byStaging ? "killed" : "–"} | ${(v.killer ?? v.equivalent ?? "").replace(/\|/g, "\\|")} |`;
    }),
    "",
  ].join("\n");
  return { markdown, score, ok: survivors.length === 0 && verdicts.every((v) => !v.error) };
}

/** One line per mutant: id, place, mutator, the change, and the equivalence entry when listed. */
export function describeMutant(mutant: SdkMutant): string {
  const why = equivalenceOf(mutant);
  const text = (t: string) => t.replace(/\s+/g, " ").slice(0, 80);
  return `#${mutant.id} ${mutant.file}:${mutant.line} ${mutant.mutator}: ${text(mutant.original)} → ${text(mutant.replacement)}${why ? ` (listed equivalent: ${why})` : ""}`;
}

/**
 * `--sample N --seed S --list`: the sample a seed draws, without judging it (seconds, not the
 * half hour of a run), so each mutant can be looked at, and tried alone with `--mutant`.
 */
export async function listSample(options: SampleOptions): Promise<string[]> {
  const pool = poolOf((await instrumentSdk()).mutants, options.module);
  return [
    `${pool.length} mutants${options.module ? ` in ${options.module}` : ""}; sample of ${Math.min(options.size, pool.length)} with seed ${options.seed}:`,
    ...sampleOf(pool, options.size, options.seed).map(describeMutant),
  ];
}

export interface SampleOptions {
  size: number;
  seed: number;
  /** only this SDK file's mutants (relative to emulator/sdk): a module judged rule by rule,
   *  every one of its mutants when the size is at least their count */
  module?: string;
}

/** The mutants a sample is drawn from: all of them, or one module's. */
export function poolOf(mutants: SdkMutant[], module?: string): SdkMutant[] {
  if (!module) return mutants;
  const pool = mutants.filter((m) => m.file === module);
  if (pool.length === 0) {
    const files = [...new Set(mutants.map((m) => m.file))].sort().join(", ");
    throw new Error(`no mutant in ${module}; the SDK's files with mutants: ${files}`);
  }
  return pool;
}

/**
 * `--mutant ID[,ID…] --write DIR`: the instrumented SDK with one mutant on, one bundle per id
 * (DIR/mutant-<id>.js), to serve (EMULATOR_SDK=<file>) and run any test against by hand.
 */
export async function writeMutantBundles(ids: string[], dir: string): Promise<SdkMutant[]> {
  const { mutants, code } = await instrumentSdk();
  const chosen = ids.map((id) => {
    const mutant = mutants.find((m) => m.id === id);
    if (!mutant) throw new Error(`no mutant #${id} among the ${mutants.length} of emulator/sdk`);
    return mutant;
  });
  mkdirSync(dir, { recursive: true });
  for (const mutant of chosen) {
    writeFileSync(path.join(dir, `mutant-${mutant.id}.js`), withActiveMutant(code, mutant.id));
  }
  return chosen;
}

export async function runSample(options: SampleOptions & { out: string }) {
  const started = Date.now();
  mkdirSync(options.out, { recursive: true });
  console.log("Instrumenting emulator/sdk with StrykerJS's mutants …");
  const { mutants, code } = await instrumentSdk();
  const pool = poolOf(mutants, options.module);
  const chosen = sampleOf(pool, options.size, options.seed);
  const within = options.module ? ` in ${options.module}` : "";
  console.log(
    `${pool.length} mutants${within}; sample of ${chosen.length} with seed ${options.seed}.`,
  );
  const control = path.join(options.out, "instrumented.js");
  writeFileSync(control, code);
  console.log("Control run: the whole suite against the instrumented SDK, recording coverage …");
  const coverageDir = path.join(options.out, "coverage");
  rmSync(coverageDir, { recursive: true, force: true });
  const results = await runRelease({
    builds: [{ label: "candidate", source: control }],
    out: path.join(options.out, "control"),
    coverageDir,
    quiet: true,
  });
  const errors = results.flatMap((r) => r.errors);
  if (errors.length > 0) throw new Error(`the control run could not judge: ${errors.join("; ")}`);
  // A test that fails with no mutant active can tell nothing about a mutant: it is left out of
  // the judging and named in the report. More than a tenth of them means a broken set-up.
  const controlFailures = failedTests(results);
  const ran = results.flatMap((r) => r.tests.filter((t) => t.outcome !== "skipped")).length;
  if (controlFailures.length > ran / 10) {
    throw new Error(
      `the instrumented SDK with no mutant active fails ${controlFailures.length} of ${ran} tests: ${controlFailures.join("; ")}`,
    );
  }
  const coverage = readCoverage(coverageDir, new Set(controlFailures));
  const verdicts: SampledVerdict[] = [];
  for (const mutant of chosen) {
    const verdict = await judge(mutant, code, coverage.get(mutant.id) ?? [], options.out);
    verdicts.push(verdict);
    const word = verdict.error
      ? `ERROR ${verdict.error}`
      : verdict.byWhole
        ? `killed${verdict.byStaging ? " (staging run too)" : ""} by ${verdict.killer}`
        : verdict.equivalent
          ? `equivalent: ${verdict.equivalent}`
          : `SURVIVED (${verdict.coveredBy} tests reach it)`;
    console.log(
      `  #${mutant.id} ${mutant.file}:${mutant.line} ${mutant.mutator}: ${word} (${verdict.seconds.toFixed(0)} s)`,
    );
  }
  const report = sampleReport(verdicts, {
    seed: options.seed,
    size: options.size,
    total: pool.length,
    ...(options.module ? { module: options.module } : {}),
    seconds: (Date.now() - started) / 1000,
    leftOut: controlFailures,
  });
  const name = `sample-${options.seed}${options.module ? `-${options.module.replace(/\.ts$/, "")}` : ""}`;
  writeFileSync(path.join(options.out, `${name}.md`), report.markdown);
  writeFileSync(
    path.join(options.out, `${name}.json`),
    JSON.stringify(
      { seed: options.seed, module: options.module, total: pool.length, verdicts },
      null,
      2,
    ),
  );
  console.log(`\n${report.score}`);
  console.log(`Report: ${path.relative(process.cwd(), path.join(options.out, `${name}.md`))}`);
  return report;
}
