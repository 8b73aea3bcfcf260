// The base Playwright `test` of both browser suites (emulator/e2e and e2e/). It adds one thing:
// when the sampled mutation run (./sampled-mutants.ts) asks for it with SDK_MUTANT_COVERAGE_DIR,
// every test records which of the SDK's mutants its pages ran, so that each mutant is then judged
// by the tests that reach it instead of by the whole suite. Without that variable it does nothing.
//
// The mutation tool's instrumented SDK counts every mutant it reaches in
// `globalThis.__stryker__.mutantCoverage.static` (StrykerJS's mutant coverage). That object lives
// in the page and is gone at the next navigation, so a script installed before the SDK loads
// replaces it with one that reports each mutant the first time it is reached, through a binding
// to this test process.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test as base } from "@playwright/test";

/** What one test reached; ./sampled-mutants.ts reads one such file per test. */
export interface TestCoverage {
  /** the test file, relative to the repository */
  file: string;
  line: number;
  /** describe titles and the test title, joined with " › " */
  title: string;
  project: string;
  mutants: string[];
}

const ROOT = path.resolve(import.meta.dirname, "../..");

const REPORT_EACH_NEW_MUTANT = `(() => {
  const seen = new Set();
  const report = (id) => {
    try { globalThis.__sdkMutantReached(id).catch(() => {}); } catch {}
  };
  const counts = new Proxy({}, {
    set(target, id, value) {
      if (!seen.has(id)) { seen.add(id); report(String(id)); }
      target[id] = value;
      return true;
    },
  });
  const ns = (globalThis.__stryker__ = globalThis.__stryker__ || {});
  ns.mutantCoverage = { static: counts, perTest: {} };
})();`;

export const test = base.extend<{ sdkCoverage: undefined }>({
  sdkCoverage: [
    async ({ context }, use, testInfo) => {
      const dir = process.env.SDK_MUTANT_COVERAGE_DIR;
      if (!dir) return use(undefined);
      const reached = new Set<string>();
      await context.exposeBinding("__sdkMutantReached", (_source, id: string) => {
        reached.add(id);
      });
      await context.addInitScript(REPORT_EACH_NEW_MUTANT);
      await use(undefined);
      const coverage: TestCoverage = {
        file: path.relative(ROOT, testInfo.file),
        line: testInfo.line,
        title: testInfo.titlePath.slice(1).join(" › "),
        project: testInfo.project.name,
        mutants: [...reached].sort((a, b) => Number(a) - Number(b)),
      };
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        path.join(dir, `${testInfo.testId}-${testInfo.repeatEachIndex}.json`),
        JSON.stringify(coverage),
      );
    },
    { auto: true },
  ],
});
