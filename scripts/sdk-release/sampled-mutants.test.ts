import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EQUIVALENT_MUTANTS } from "./equivalent-mutants";
import {
  type CoveringTest,
  filtersOf,
  inStagingRun,
  instrumentSdk,
  poolOf,
  type SampledVerdict,
  type SdkMutant,
  sampleOf,
  sampleReport,
  textAt,
  withActiveMutant,
} from "./sampled-mutants";

const SDK = path.resolve(import.meta.dirname, "../../emulator/sdk");

let instrumented: { mutants: SdkMutant[]; code: string };
beforeAll(async () => {
  instrumented = await instrumentSdk();
}, 60_000);

describe("StrykerJS's mutants of emulator/sdk", () => {
  it("are many, with unique ids, each naming the source text it replaces", () => {
    const { mutants } = instrumented;
    expect(mutants.length).toBeGreaterThan(500);
    expect(new Set(mutants.map((m) => m.id)).size).toBe(mutants.length);
    for (const mutant of mutants.slice(0, 200)) {
      const source = readFileSync(path.join(SDK, mutant.file), "utf8");
      const line = source.split("\n")[mutant.line - 1] ?? "";
      expect(line, `${mutant.id} ${mutant.file}:${mutant.line}`).toContain(
        mutant.original.split("\n")[0],
      );
      expect(mutant.replacement).not.toBe(mutant.original);
    }
  });

  it("are all in one bundle, each behind its switch, and one switch is turned on before the SDK runs", () => {
    expect(instrumented.code).toContain("__stryker__");
    const code = withActiveMutant(instrumented.code, "42");
    expect(
      code.startsWith(
        '(globalThis.__stryker__ = globalThis.__stryker__ || {}).activeMutant = "42";',
      ),
    ).toBe(true);
  });

  it("every equivalent mutant listed still exists, as many times as the entry says (once by default)", () => {
    for (const entry of EQUIVALENT_MUTANTS) {
      const matches = instrumented.mutants.filter(
        (m) =>
          m.file === entry.file &&
          m.mutator === entry.mutator &&
          m.original === entry.original &&
          m.replacement === entry.replacement,
      );
      expect(matches.length, `${entry.file} ${entry.mutator} ${entry.original}`).toBe(
        entry.count ?? 1,
      );
    }
  });
});

describe("the sample", () => {
  const ids = Array.from({ length: 1000 }, (_, i) => String(i));

  it("is the same for the same seed, another for another seed, never a mutant twice", () => {
    const a = sampleOf(ids, 25, 7);
    expect(sampleOf(ids, 25, 7)).toEqual(a);
    expect(sampleOf(ids, 25, 8)).not.toEqual(a);
    expect(new Set(a).size).toBe(25);
    expect(sampleOf(ids.slice(0, 3), 25, 7)).toHaveLength(3);
  });

  it("drawn from one module holds that module's mutants, all of them when it is big enough", () => {
    const { mutants } = instrumented;
    const api = poolOf(mutants, "api.ts");
    expect(api.length).toBeGreaterThan(20);
    expect(api.every((m) => m.file === "api.ts")).toBe(true);
    expect(api).toHaveLength(mutants.filter((m) => m.file === "api.ts").length);
    expect(new Set(sampleOf(api, 10_000, 1))).toEqual(new Set(api));
    expect(poolOf(mutants)).toBe(mutants);
    expect(() => poolOf(mutants, "nowhere.ts")).toThrow(/no mutant in nowhere\.ts.*api\.ts/);
  });

  it("is spread over the whole list, not its start", () => {
    const drawn = sampleOf(ids, 100, 3).map(Number);
    expect(Math.max(...drawn)).toBeGreaterThan(800);
    expect(Math.min(...drawn)).toBeLessThan(200);
  });
});

const test = (over: Partial<CoveringTest>): CoveringTest => ({
  suite: "storefront",
  file: "e2e/a.e2e.ts",
  line: 10,
  title: "a journey",
  project: "storefront",
  mutants: [],
  ...over,
});

describe("judging a mutant by the tests that reach it", () => {
  it("the staging run may run the storefront project's journeys, whatever their title", () => {
    expect(inStagingRun(test({}))).toBe(true);
    expect(inStagingRun(test({ title: "faults @emulator" }))).toBe(true);
    expect(inStagingRun(test({ suite: "sdk-page" }))).toBe(false);
    expect(inStagingRun(test({ project: "readiness" }))).toBe(false);
  });

  it("runs each test by its file and line, once per place, per suite", () => {
    expect(
      filtersOf([
        test({}),
        test({ project: "variant" }),
        test({ line: 20 }),
        test({ suite: "sdk-page", file: "emulator/e2e/w.e2e.ts", line: 5 }),
      ]),
    ).toEqual({
      storefront: ["e2e/a.e2e.ts:10", "e2e/a.e2e.ts:20"],
      "sdk-page": ["emulator/e2e/w.e2e.ts:5"],
    });
  });
});

describe("the score", () => {
  const mutant = (id: string): SdkMutant => ({
    id,
    file: "payment.ts",
    line: 1,
    mutator: "StringLiteral",
    original: '"dd"',
    replacement: '""',
  });
  const verdict = (id: string, over: Partial<SampledVerdict>): SampledVerdict => ({
    mutant: mutant(id),
    coveredBy: 3,
    byStaging: false,
    byWhole: false,
    seconds: 1,
    ...over,
  });

  it("counts equivalent mutants out, and fails while a survivor is left", () => {
    const report = sampleReport(
      [
        verdict("1", { byWhole: true, byStaging: true, killer: "storefront: x" }),
        verdict("2", { byWhole: true }),
        verdict("3", { equivalent: "only a console text" }),
        verdict("4", { coveredBy: 0 }),
      ],
      { seed: 5, size: 4, total: 900, seconds: 60 },
    );
    expect(report.score).toBe(
      "seed 5, 4 of 900 mutants: whole suite 2/3 (67 %), staging run 1/3 (33 %); 1 equivalent, 1 survived",
    );
    expect(report.ok).toBe(false);
    expect(report.markdown).toContain("**SURVIVED** (no test reaches it)");
    expect(report.markdown).toContain("only a console text");
  });

  it("counts a mutant whose run failed as not judged, neither killed nor survived", () => {
    const report = sampleReport(
      [
        verdict("1", { byWhole: true }),
        verdict("2", { error: "Process from config.webServer was not able to start" }),
        verdict("3", {}),
      ],
      { seed: 9, size: 3, total: 900, seconds: 60 },
    );
    expect(report.score).toBe(
      "seed 9, 3 of 900 mutants: whole suite 1/2 (50 %), staging run 0/2 (0 %); 0 equivalent, 1 survived; 1 NOT JUDGED (their runs failed: rerun the seed)",
    );
    expect(report.ok).toBe(false);
    expect(report.markdown).toContain("**Not judged: 1** (#2)");
  });

  it("passes when every mutant is killed or shown equivalent", () => {
    const report = sampleReport(
      [verdict("1", { byWhole: true }), verdict("2", { equivalent: "why" })],
      { seed: 1, size: 2, total: 10, seconds: 1 },
    );
    expect(report.ok).toBe(true);
  });
});

describe("textAt", () => {
  it("reads one line or several between 0-based positions", () => {
    const source = "abc\ndef\nghi";
    expect(textAt(source, { line: 1, column: 1 }, { line: 1, column: 3 })).toBe("ef");
    expect(textAt(source, { line: 0, column: 2 }, { line: 2, column: 1 })).toBe("c\ndef\ng");
  });
});
