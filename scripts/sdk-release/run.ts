// `npm run test:sdk-release -- --sdk <path|URL> [--baseline <path|URL>]`: both browser suites (the
// SDK on the emulator's test page, emulator/e2e; the storefront, e2e/) against a candidate SDK
// bundle served by the emulator, and against a baseline when one is given. Writes
// sdk-release-report/ (index.html, summary.md, junit/, results.json, each build's SDK surfaces
// beside the other's) and exits non-zero on any failure. Without --sdk the candidate is the
// emulator's own build (what npm test runs).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { machineWorkers } from "../../e2e/support/stack";
import { buildSdk, loadSdk, type SdkBundle } from "../../emulator/src/assets/build-sdk";
import { ensureBrowser } from "../ensure-browser.mjs";
import type { SuiteName } from "./contract-items";
import { machineCpuSeconds, treeCpuMeter } from "./cpu";
import { writeReport } from "./report";
import { outcomes, readReport, skippedAll, type TestOutcome } from "./results";
import { STAGING_SELECTION } from "./selection";

export const ROOT = path.resolve(import.meta.dirname, "../..");
const PLAYWRIGHT = path.join(ROOT, "node_modules/.bin/playwright");

type Env = Record<string, string | undefined>;

export interface BuildSpec {
  label: "candidate" | "baseline";
  /** path or URL of the bundle; undefined = the emulator's own build */
  source?: string;
}

export interface BuildResult {
  label: string;
  source: string;
  bundle: Pick<SdkBundle, "bytes" | "gzipBytes" | "sha256"> | null;
  /** a bundle that cannot be loaded, a suite that crashed or found no tests */
  errors: string[];
  tests: TestOutcome[];
  durationMs: number;
  /** Each browser suite's wall time and the CPU-seconds of its process tree (./cpu.ts). */
  suites?: SuiteTime[];
  /** The machine's busy CPU-seconds while the build's suites ran (null: not measured). */
  machineCpuSeconds?: number | null;
  /** Run without the service fixture (the staging selection): what the report checks the
   *  tests' @emulator tags and the contract items' `needsEmulator` against. */
  withoutServiceFixture?: boolean;
}

export interface SuiteTime {
  name: string;
  wallMs: number;
  cpuSeconds: number | null;
}

export interface ReleaseOptions {
  builds: BuildSpec[];
  out: string;
  /** no bundled emulator: a staging service (SERVICE_* in the environment) serves the SDK */
  noEmulator?: boolean;
  /** workers of the SDK page suite (its tests are isolated per test merchant) */
  workers?: number;
  /** the suites to run (default both) */
  suites?: SuiteName[];
  /** SERVICE_FIXTURE=none even with the bundled emulator: the tests that need the service
   *  fixture are skipped as in a staging run (./selection.ts, the mutation run's subset) */
  withoutServiceFixture?: boolean;
  /** storefront tests left out besides the shop's own (`mutants:sdk --skip`; E2E_GREP_INVERT) */
  grepInvert?: string;
  /** file filters per suite (Playwright's positional arguments: `file` or `file:line`) */
  files?: Partial<Record<SuiteName, string[]>>;
  /** each test records the SDK mutants its pages reached, in `<dir>/<suite>/` (./sdk-coverage.ts) */
  coverageDir?: string;
  /** stop each suite after this many failures (the mutation run only needs one) */
  maxFailures?: number;
  /** workers of the storefront suite, each with a storefront + emulator stack of its own
   *  (E2E_WORKERS, e2e/support/stack.ts; default 2) */
  stacks?: number;
  /** every storefront journey, the shop's own too (./selection.ts SHOP_OWN), not only the SDK's */
  wholeStorefront?: boolean;
  /** print only a line per build, not every test */
  quiet?: boolean;
}

interface SuiteRun {
  name: SuiteName;
  /** file name of its reports */
  id: string;
  config: string;
  env: Record<string, string>;
}

/**
 * The Playwright processes of one build, run side by side: the SDK page suite, and the storefront
 * suite with a storefront + emulator stack per worker (E2E_WORKERS, playwright.config.ts).
 */
export function suiteRuns(options: ReleaseOptions): SuiteRun[] {
  const stacks = options.stacks ?? Number(process.env.E2E_WORKERS ?? 2);
  const runs: SuiteRun[] = [
    { name: "sdk-page", id: "sdk-page", config: "emulator/playwright.config.ts", env: {} },
    {
      name: "storefront",
      id: "storefront",
      config: "playwright.config.ts",
      // The SDK's journeys, not the shop's own (./selection.ts storefrontSelection), unless
      // --whole-storefront asks for every journey.
      env: {
        E2E_WORKERS: String(stacks),
        ...(options.wholeStorefront ? {} : { E2E_SELECTION: "release" }),
        ...(options.grepInvert ? { E2E_GREP_INVERT: options.grepInvert } : {}),
      },
    },
  ];
  return runs.filter((s) => !options.suites || options.suites.includes(s.name));
}

/** The Playwright processes running now. A SIGINT or SIGTERM to this runner reaches them as
 *  SIGINT, Playwright's Ctrl-C, on which it stops the storefronts and emulators it started
 *  (on SIGTERM it would leave them on their ports). */
const running = new Set<ChildProcess>();
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    stopping = true;
    if (running.size === 0) process.exit(130);
    for (const child of running) child.kill("SIGINT");
  });
}

function playwright(
  args: string[],
  env: Env,
  prefix: string,
  quiet: boolean,
): Promise<{ code: number; cpuSeconds: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(PLAYWRIGHT, args, {
      cwd: ROOT,
      // Next's types make NODE_ENV required; a child process's environment does not need it.
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const cpu = treeCpuMeter(child.pid);
    running.add(child);
    child.on("exit", () => {
      running.delete(child);
      if (stopping && running.size === 0) process.exit(130);
    });
    const forward = (stream: NodeJS.ReadableStream, to: NodeJS.WriteStream) => {
      let rest = "";
      stream.on("data", (chunk: Buffer) => {
        const lines = (rest + chunk.toString()).split("\n");
        rest = lines.pop() ?? "";
        if (!quiet) for (const line of lines) if (line.trim()) to.write(`${prefix} ${line}\n`);
      });
    };
    forward(child.stdout, process.stdout);
    forward(child.stderr, process.stderr);
    child.on("close", (code) => resolve({ code: code ?? 1, cpuSeconds: cpu.stop() }));
  });
}

async function bundleOf(spec: BuildSpec): Promise<SdkBundle> {
  return spec.source ? loadSdk(spec.source) : buildSdk();
}

/**
 * The environment of one build's Playwright processes. With the bundled emulator, it serves the
 * bundle file (EMULATOR_SDK) and every test checks its SHA-256. Without it (a staging service):
 * the storefront loads the SDK from the --sdk URL, no emulator starts, and every journey that
 * needs the service fixture is skipped with the reason (e2e/support/service-fixture.ts).
 */
export function buildEnv(
  spec: BuildSpec,
  bundle: { file: string; sha256: string },
  options: Pick<ReleaseOptions, "noEmulator" | "withoutServiceFixture">,
  base: Env,
): { env: Env } | { error: string } {
  const env: Env = {
    ...base,
    EXPECT_SDK_SHA256: bundle.sha256,
    ...(spec.source ? { EMULATOR_SDK: bundle.file } : {}),
    ...(selected(options).withoutServiceFixture ? { SERVICE_FIXTURE: "none" } : {}),
  };
  if (!options.noEmulator) return { env };
  // Contract, Versioning: the SDK is {assets_url}/v1/main.js, so the candidate URL names it.
  if (!spec.source || !/^https?:\/\/.+\/v1\/main\.js$/.test(spec.source)) {
    return { error: "--no-emulator needs --sdk <assets_url>/v1/main.js (an http(s) URL)" };
  }
  // The shop's .env points at the bundled emulator: a staging run must name its service.
  if (!base.SERVICE_API_BASE_URL) {
    return {
      error:
        "--no-emulator needs SERVICE_API_BASE_URL (and the staging service's other SERVICE_* values) in the environment",
    };
  }
  env.SERVICE_ASSETS_URL = spec.source.replace(/\/v1\/main\.js$/, "");
  env.EMULATOR_PORT = "0";
  delete env.EMULATOR_SDK;
  return { env };
}

/** A staging run (--no-emulator) runs the staging selection, whatever else the options say. */
export function selected<T extends Partial<ReleaseOptions>>(options: T): T {
  return options.noEmulator ? { ...options, ...STAGING_SELECTION } : options;
}

async function runBuild(spec: BuildSpec, options: ReleaseOptions): Promise<BuildResult> {
  const started = Date.now();
  const dir = path.join(options.out, spec.label);
  mkdirSync(path.join(options.out, "junit"), { recursive: true });
  mkdirSync(dir, { recursive: true });
  const result: BuildResult = {
    label: spec.label,
    source: spec.source ?? "built-in (emulator/sdk)",
    bundle: null,
    errors: [],
    tests: [],
    durationMs: 0,
  };
  let bundle: SdkBundle;
  try {
    bundle = await bundleOf(spec);
  } catch (error) {
    result.errors.push(`the bundle cannot be loaded: ${(error as Error).message}`);
    result.durationMs = Date.now() - started;
    return result;
  }
  result.bundle = { bytes: bundle.bytes, gzipBytes: bundle.gzipBytes, sha256: bundle.sha256 };
  // The emulator serves these exact bytes (fetched once, even for a URL); the SDK page suite
  // checks GET /__emulator/sdk answers the same SHA-256, so a stale server cannot stand in.
  const file = path.join(dir, "main.js");
  writeFileSync(file, bundle.code);
  const built = buildEnv(spec, { file, sha256: bundle.sha256 }, options, process.env);
  if ("error" in built) {
    result.errors.push(built.error);
    return result;
  }
  const { env } = built;
  const selection = selected(options);
  result.withoutServiceFixture = selection.withoutServiceFixture ?? false;

  const machineBefore = machineCpuSeconds();
  result.suites = [];
  // The suites run side by side, each with its own workers; on one core one after the other,
  // so that no journey runs at a quarter of the machine's pace against its time limit.
  await eachSuite(suiteRuns(options), machineWorkers() > 1, async (suite) => {
    const json = path.join(dir, `${suite.id}.json`);
    rmSync(json, { force: true });
    const junit = path.join(options.out, "junit", `${spec.label}-${suite.id}.xml`);
    // The SDK page suite's surfaces.e2e.ts leaves each SDK surface's PNG here (./surfaces.ts).
    const surfaces = path.join(dir, "surfaces");
    if (suite.name === "sdk-page") rmSync(surfaces, { recursive: true, force: true });
    const suiteEnv = {
      ...env,
      ...suite.env,
      ...(suite.name === "sdk-page" ? { SDK_SURFACES_DIR: surfaces } : {}),
      PLAYWRIGHT_JSON_OUTPUT_FILE: json,
      PLAYWRIGHT_JUNIT_OUTPUT_FILE: junit,
      ...(options.coverageDir
        ? { SDK_MUTANT_COVERAGE_DIR: path.join(options.coverageDir, suite.name) }
        : {}),
    };
    if (options.noEmulator && !selection.suites?.includes(suite.name)) {
      // The SDK test page is part of the bundled emulator: list its tests, report them skipped.
      await playwright(
        ["test", "-c", suite.config, "--list", "--reporter=json"],
        suiteEnv,
        "",
        true,
      );
      if (existsSync(json)) {
        result.tests.push(
          ...skippedAll(
            readReport(json),
            suite.name,
            "the SDK test page is served by the bundled emulator, absent with --no-emulator",
          ),
        );
      }
      return;
    }
    const args = ["test", "-c", suite.config, "--reporter=list,json,junit"];
    if (suite.name === "sdk-page") args.push(`--workers=${options.workers ?? 2}`);
    if (options.maxFailures) args.push(`--max-failures=${options.maxFailures}`);
    args.push(...(options.files?.[suite.name] ?? []));
    const suiteStarted = Date.now();
    const { code, cpuSeconds } = await playwright(
      args,
      suiteEnv,
      `[${spec.label} ${suite.id}]`,
      options.quiet ?? false,
    );
    result.suites?.push({ name: suite.name, wallMs: Date.now() - suiteStarted, cpuSeconds });
    if (!existsSync(json)) {
      result.errors.push(`${suite.id}: Playwright wrote no report (exit ${code})`);
      return;
    }
    const report = readReport(json);
    const found = outcomes(report, suite.name);
    result.tests.push(...found);
    for (const error of report.errors ?? []) {
      result.errors.push(`${suite.id}: ${(error.message ?? "").split("\n")[0]}`);
    }
    if (found.length === 0) result.errors.push(`${suite.id}: no tests ran`);
    if (code !== 0 && !found.some((t) => t.outcome === "failed") && !report.errors?.length) {
      result.errors.push(`${suite.id}: Playwright exited ${code}`);
    }
  });
  const machineAfter = machineCpuSeconds();
  result.machineCpuSeconds =
    machineBefore === null || machineAfter === null ? null : machineAfter - machineBefore;
  result.durationMs = Date.now() - started;
  return result;
}

/** Runs `run` for every item: all at once, or one after the other. */
async function eachSuite<T>(
  items: T[],
  together: boolean,
  run: (item: T) => Promise<void>,
): Promise<void> {
  if (together) {
    await Promise.all(items.map(run));
    return;
  }
  for (const item of items) await run(item);
}

/** The storefront suite runs against `next start`: build once when there is no build yet, with
 *  the shop's test clock its journeys move (`npm run build:test`). */
async function ensureShopBuild(): Promise<void> {
  if (existsSync(path.join(ROOT, ".next/BUILD_ID"))) return;
  console.log("No storefront build yet: running next build (SHOP_TEST_CLOCK=1) first.");
  const code = await new Promise<number>((resolve) => {
    const child = spawn(path.join(ROOT, "node_modules/.bin/next"), ["build"], {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, SHOP_TEST_CLOCK: "1" },
    });
    child.on("close", (c) => resolve(c ?? 1));
  });
  if (code !== 0) throw new Error("next build failed");
}

export async function runRelease(options: ReleaseOptions): Promise<BuildResult[]> {
  // A new machine has no Chromium: installed as `npm test` installs it (Debian's headless shell),
  // so the SDK team's run, the staging run and the mutation runs need nothing done by hand.
  process.env.CHROMIUM_PATH = ensureBrowser();
  await ensureShopBuild();
  const results: BuildResult[] = [];
  // One build after the other: both use the same fixed ports (4110, and 3800/4800 and up).
  for (const spec of options.builds) results.push(await runBuild(spec, options));
  return results;
}

/** The failed tests; a run that could not judge (no report, a server that did not start) throws,
 *  so a mutation run never counts it as a kill. */
export function failedTests(results: BuildResult[]): string[] {
  const failures = results.flatMap((r) =>
    r.tests.filter((t) => t.outcome === "failed").map((t) => `${t.suite}: ${t.title}`),
  );
  const errors = results.flatMap((r) => r.errors);
  if (failures.length === 0 && errors.length > 0) throw new Error(errors.join("; "));
  return failures;
}

export function failed(results: BuildResult[]): boolean {
  return results.some((r) => r.errors.length > 0 || r.tests.some((t) => t.outcome === "failed"));
}

async function main() {
  const { values } = parseArgs({
    options: {
      sdk: { type: "string" },
      baseline: { type: "string" },
      out: { type: "string", default: "sdk-release-report" },
      "no-emulator": { type: "boolean", default: false },
      workers: { type: "string", default: String(machineWorkers()) },
      // workers of the storefront suite, a storefront + emulator stack each
      stacks: { type: "string", default: process.env.E2E_WORKERS ?? String(machineWorkers()) },
      quiet: { type: "boolean", default: false },
      // the shop's own journeys too (./selection.ts SHOP_OWN): what npm test runs in two steps
      "whole-storefront": { type: "boolean", default: false },
    },
  });
  const out = path.resolve(ROOT, values.out ?? "sdk-release-report");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const builds: BuildSpec[] = [
    { label: "candidate", ...(values.sdk ? { source: values.sdk } : {}) },
  ];
  // "--baseline builtin" (or "emulator") names the emulator's own build explicitly.
  if (values.baseline) {
    const own = ["builtin", "built-in", "emulator"].includes(values.baseline);
    builds.push({ label: "baseline", ...(own ? {} : { source: values.baseline }) });
  }
  const started = Date.now();
  const results = await runRelease({
    builds,
    out,
    noEmulator: values["no-emulator"] ?? false,
    workers: Number(values.workers),
    stacks: Number(values.stacks),
    quiet: values.quiet ?? false,
    wholeStorefront: values["whole-storefront"] ?? false,
  });
  const report = writeReport(out, results, Date.now() - started);
  console.log(`\n${report.text}`);
  console.log(`Report: ${path.relative(process.cwd(), path.join(out, "index.html"))}`);
  process.exit(report.ok ? 0 : 1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await main();
}
