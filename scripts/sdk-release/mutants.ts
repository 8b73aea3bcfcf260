// `npm run mutants:sdk [-- --only id,id]`: applies each realistic SDK regression of
// ./mutations.ts, one at a time, to a COPY of emulator/sdk (the emulator's own SDK is never
// edited), builds it, and runs the release suite against the mutated bundle. A mutant is killed
// when a test fails. Reported twice: by the whole release suite, and by the subset that runs
// without the bundled emulator (the staging selection, ./selection.ts, what `--no-emulator`
// runs). Writes mutants-report/mutants.md; exits non-zero when a mutant survives the whole suite.
//
// To stay fast it first runs that subset (a kill there is a kill by the whole suite too), and
// only for survivors the whole suite, stopping at the first failure.
//
// StrykerJS's sampled mutants (./sampled-mutants.ts): `--sample N --seed S` judges a sample,
// `--sample N --seed S --list` only prints it, `--module api.ts` draws from that file's mutants
// only (every one of them when N is at least their count), and `--mutant ID[,ID…] --write DIR` writes the
// SDK with that one mutant on (DIR/mutant-ID.js), to serve (EMULATOR_SDK=that file) and run a
// single test against by hand.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildSdk } from "../../emulator/src/assets/build-sdk";
import { applyMutation, MUTATIONS, type Mutation } from "./mutations";
import { failedTests, type ReleaseOptions, ROOT, runRelease } from "./run";
import { describeMutant, listSample, runSample, writeMutantBundles } from "./sampled-mutants";
import { STAGING_SELECTION } from "./selection";

const SDK_DIR = path.join(ROOT, "emulator/sdk");

interface Verdict {
  mutation: Mutation;
  bySubset: boolean;
  byWhole: boolean;
  killers: string[];
  seconds: number;
  error?: string;
}

/** The subset without the bundled emulator: exactly what `--no-emulator` runs (./selection.ts),
 *  against the mutated bundle served by the bundled emulator; one failure is a kill. */
const SUBSET: Partial<ReleaseOptions> = { ...STAGING_SELECTION, maxFailures: 1, quiet: true };
/** The whole suite stops at its first failure. */
const WHOLE: Partial<ReleaseOptions> = { maxFailures: 1, quiet: true };

/** The emulator's own SDK built from the same copy step, as the control build. */
async function unmutatedBundle(out: string): Promise<string> {
  const work = mkdtempSync(path.join(tmpdir(), "sdk-control-"));
  cpSync(SDK_DIR, work, { recursive: true });
  const bundle = await buildSdk(path.join(work, "main.ts"));
  const file = path.join(out, "control.js");
  writeFileSync(file, bundle.code);
  rmSync(work, { recursive: true, force: true });
  return file;
}

async function judge(mutation: Mutation, out: string): Promise<Verdict> {
  const started = Date.now();
  const work = mkdtempSync(path.join(tmpdir(), `sdk-mutant-${mutation.id}-`));
  try {
    cpSync(SDK_DIR, work, { recursive: true });
    applyMutation(work, mutation);
    const bundle = await buildSdk(path.join(work, "main.ts"));
    const file = path.join(work, "main.js");
    writeFileSync(file, bundle.code);
    const dir = path.join(out, mutation.id);
    mkdirSync(dir, { recursive: true });
    const subset = await runRelease({
      builds: [{ label: "candidate", source: file }],
      out: path.join(dir, "subset"),
      ...SUBSET,
    });
    let killers = failedTests(subset);
    const bySubset = killers.length > 0;
    if (!bySubset) {
      const whole = await runRelease({
        builds: [{ label: "candidate", source: file }],
        out: path.join(dir, "whole"),
        ...WHOLE,
      });
      killers = failedTests(whole);
    }
    return {
      mutation,
      bySubset,
      byWhole: killers.length > 0,
      killers,
      seconds: (Date.now() - started) / 1000,
    };
  } catch (error) {
    return {
      mutation,
      bySubset: false,
      byWhole: false,
      killers: [],
      seconds: (Date.now() - started) / 1000,
      error: (error as Error).message,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      only: { type: "string" },
      out: { type: "string", default: "mutants-report" },
      // a regular expression of test titles to leave out (a test that fails without any mutant)
      skip: { type: "string" },
      // StrykerJS's mutants instead of ours: a seeded random sample of this size (./sampled-mutants.ts)
      sample: { type: "string" },
      seed: { type: "string", default: "1" },
      // with --sample: draw only from this SDK file's mutants (e.g. api.ts)
      module: { type: "string" },
      // with --sample: print the seed's sample, judge nothing
      list: { type: "boolean", default: false },
      // StrykerJS mutants by id (comma-separated), each written active into a bundle in --write
      mutant: { type: "string" },
      write: { type: "string" },
    },
  });
  if (values.mutant) {
    if (!values.write) {
      console.error("--mutant needs --write DIR");
      process.exit(2);
    }
    const dir = path.resolve(values.write);
    const ids = values.mutant.split(",").map((id) => id.trim());
    for (const mutant of await writeMutantBundles(ids, dir)) {
      console.log(`${describeMutant(mutant)}\n  ${path.join(dir, `mutant-${mutant.id}.js`)}`);
    }
    console.log("Run a test against one: EMULATOR_SDK=<file> npm run test:sdk -- <spec>");
    process.exit(0);
  }
  if (values.sample) {
    const size = Number(values.sample);
    const seed = Number(values.seed);
    if (!Number.isInteger(size) || size < 1 || !Number.isInteger(seed)) {
      console.error("--sample needs a positive whole number, --seed a whole number");
      process.exit(2);
    }
    if (values.list) {
      console.log((await listSample({ size, seed, module: values.module })).join("\n"));
      process.exit(0);
    }
    const out = path.resolve(ROOT, values.out ?? "mutants-report");
    const report = await runSample({ size, seed, out, module: values.module });
    process.exit(report.ok ? 0 : 1);
  }
  const only = values.only?.split(",").map((s) => s.trim());
  const chosen = only ? MUTATIONS.filter((m) => only.includes(m.id)) : MUTATIONS;
  const out = path.resolve(ROOT, values.out ?? "mutants-report");
  if (values.skip) {
    SUBSET.grepInvert = values.skip;
    WHOLE.grepInvert = values.skip;
  }
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  // Control: the unmutated copy must pass the subset, or every "kill" below would mean nothing.
  const control = await runRelease({
    builds: [{ label: "candidate", source: await unmutatedBundle(out) }],
    out: path.join(out, "control"),
    ...SUBSET,
  });
  if (failedTests(control).length > 0) {
    console.error(`The unmutated SDK fails the subset: ${failedTests(control).join("; ")}`);
    process.exit(1);
  }
  const verdicts: Verdict[] = [];
  for (const mutation of chosen) {
    console.log(`mutant ${mutation.id}: ${mutation.description} …`);
    const verdict = await judge(mutation, out);
    verdicts.push(verdict);
    const word = verdict.error
      ? `ERROR ${verdict.error}`
      : verdict.byWhole
        ? `killed${verdict.bySubset ? " (also without the emulator)" : ""} by ${verdict.killers[0]}`
        : "SURVIVED";
    console.log(`  ${word} (${verdict.seconds.toFixed(0)} s)`);
  }
  const killed = verdicts.filter((v) => v.byWhole).length;
  const visible = verdicts.filter((v) => v.mutation.shopperVisible);
  const killedBySubset = visible.filter((v) => v.bySubset).length;
  const lines = [
    "# SDK mutation run",
    "",
    `Whole release suite: **${killed} of ${verdicts.length} killed**. Subset without the bundled emulator, mutants visible to a shopper: **${killedBySubset} of ${visible.length} killed** (all mutants: ${verdicts.filter((v) => v.bySubset).length} of ${verdicts.length}).`,
    "",
    "| Mutant | Regression | Shopper-visible | Whole suite | Without emulator | First failing test |",
    "|---|---|---|---|---|---|",
    ...verdicts.map(
      (v) =>
        `| ${v.mutation.id} | ${v.mutation.description} | ${v.mutation.shopperVisible ? "yes" : "no"} | ${v.error ? `error: ${v.error}` : v.byWhole ? "killed" : "**SURVIVED**"} | ${v.bySubset ? "killed" : "survived"} | ${(v.killers[0] ?? "").replace(/\|/g, "\\|")} |`,
    ),
    "",
    "A subset kill implies a whole-suite kill; for mutants the subset missed, the whole suite ran",
    "with --max-failures=1. Check that the first failing test is about the regression: an",
    "unrelated failure (a flaky test) would count as a kill too.",
    "",
  ];
  writeFileSync(path.join(out, "mutants.md"), lines.join("\n"));
  console.log(
    `\n${lines.slice(2, 3).join("\n")}\nReport: ${path.relative(process.cwd(), path.join(out, "mutants.md"))}`,
  );
  process.exit(verdicts.every((v) => v.byWhole && !v.error) ? 0 : 1);
}

await main();
