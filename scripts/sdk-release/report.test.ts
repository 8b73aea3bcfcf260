import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { CONTRACT_ITEMS, type ContractItem } from "./contract-items";
import { itemStatus, stagingCoverage, writeReport } from "./report";
import { type JsonReport, outcomes, type TestOutcome } from "./results";
import type { BuildResult } from "./run";

// A Playwright JSON report in miniature: a file with a describe block, a pass, a failure, a skip.
const REPORT: JsonReport = {
  suites: [
    {
      title: "trade-in-card.e2e.ts",
      file: "trade-in-card.e2e.ts",
      specs: [
        {
          title: "go-live scenario 1: teaser",
          file: "service-pay.e2e.ts",
          tests: [{ status: "expected", results: [{ status: "passed", duration: 10 }] }],
        },
      ],
      suites: [
        {
          title: "card payment with a trade-in",
          file: "trade-in-card.e2e.ts",
          specs: [
            {
              title: "an expired valuation makes Service Pay ask for a new valuation @emulator",
              file: "trade-in-card.e2e.ts",
              tests: [
                {
                  status: "unexpected",
                  results: [{ status: "failed", duration: 5, error: { message: "boom\nline 2" } }],
                },
              ],
            },
            {
              title: "needs the control API @emulator",
              file: "trade-in-card.e2e.ts",
              tests: [
                {
                  status: "skipped",
                  projectName: "storefront",
                  annotations: [{ type: "skip", description: "no service fixture" }],
                  results: [],
                },
                {
                  status: "skipped",
                  projectName: "service variant: session id form",
                  annotations: [{ type: "skip", description: "no service fixture" }],
                  results: [],
                },
              ],
            },
          ],
        },
      ],
    },
  ],
};

describe("outcomes", () => {
  it("flattens describe titles, and keeps the error, the skip reason and the @emulator mark", () => {
    const list = outcomes(REPORT, "storefront");
    expect(list).toMatchObject([
      { title: "go-live scenario 1: teaser", outcome: "passed", needsEmulator: false },
      {
        title:
          "card payment with a trade-in › an expired valuation makes Service Pay ask for a new valuation @emulator",
        outcome: "failed",
        error: "boom\nline 2",
        needsEmulator: true,
      },
      { outcome: "skipped", reason: "no service fixture", needsEmulator: true },
      { outcome: "skipped", project: "service variant: session id form" },
    ]);
  });

  it("names the project of each copy in the skip list, so a variant's copy can be told apart", () => {
    const out = mkdtempSync(path.join(tmpdir(), "sdk-report-"));
    onTestFinished(() => rmSync(out, { recursive: true, force: true }));
    const tests = outcomes(REPORT, "storefront");
    const build: BuildResult = {
      label: "candidate",
      source: "x.js",
      bundle: { bytes: 10, gzipBytes: 5, sha256: "ab".repeat(32) },
      errors: [],
      tests,
      durationMs: 1000,
    };
    writeReport(out, [build], 1000);
    const md = readFileSync(path.join(out, "summary.md"), "utf8");
    expect(md).toContain("  - storefront: card payment with a trade-in › needs the control API");
    expect(md).toContain(
      "  - storefront [service variant: session id form]: card payment with a trade-in › needs the control API",
    );
  });
});

describe("a failure on the time limit", () => {
  const timedOut = (errors: string[]): JsonReport => ({
    suites: [
      {
        title: "f.e2e.ts",
        file: "f.e2e.ts",
        specs: [
          {
            title: "pays",
            file: "f.e2e.ts",
            tests: [
              {
                status: "unexpected",
                results: [
                  {
                    status: "timedOut",
                    duration: 30_000,
                    error: { message: errors[0] },
                    errors: errors.map((message) => ({ message })),
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  });

  it("names what the test was waiting for, from the pending call's log", () => {
    const [outcome] = outcomes(
      timedOut([
        "Test timeout of 30000ms exceeded.",
        "Error: locator.click: Test timeout of 30000ms exceeded.\nCall log:\n  - waiting for getByRole('button', { name: 'Pay now' })\n",
      ]),
      "storefront",
    );
    expect(outcome).toMatchObject({
      outcome: "failed",
      timedOutWaitingFor: "getByRole('button', { name: 'Pay now' })",
    });
    const out = mkdtempSync(path.join(tmpdir(), "sdk-report-"));
    onTestFinished(() => rmSync(out, { recursive: true, force: true }));
    writeReport(
      out,
      [
        {
          label: "candidate",
          source: "x.js",
          bundle: { bytes: 10, gzipBytes: 5, sha256: "ab".repeat(32) },
          errors: [],
          tests: outcome ? [outcome] : [],
          durationMs: 1000,
        },
      ],
      1000,
    );
    expect(readFileSync(path.join(out, "summary.md"), "utf8")).toContain(
      "Timed out waiting for: `getByRole('button', { name: 'Pay now' })`",
    );
  });

  it("falls back to the pending call's first line, and marks no other failure", () => {
    const [outcome] = outcomes(
      timedOut(["Test timeout of 30000ms exceeded.", "Error: page.goto: net::ERR_ABORTED"]),
      "storefront",
    );
    expect(outcome?.timedOutWaitingFor).toBe("Error: page.goto: net::ERR_ABORTED");
    expect(outcomes(REPORT, "storefront").some((t) => t.timedOutWaitingFor)).toBe(false);
  });
});

describe("contract items", () => {
  const tests = outcomes(REPORT, "storefront");
  const item = (name: string) => {
    const found = CONTRACT_ITEMS.find((i) => i.name === name);
    if (!found) throw new Error(name);
    return found;
  };

  it("fails an item when one of its tests failed, passes it when its tests passed", () => {
    expect(itemStatus(item("hasActiveTradeIn()"), tests).status).toBe("fail");
    expect(itemStatus(item("service-ready (no detail)"), tests).status).toBe("pass");
  });

  it("marks an item no test covers as not covered, and the report as failed", () => {
    expect(itemStatus(item("texts in the page's language (es)"), tests).status).toBe("not covered");
    const out = mkdtempSync(path.join(tmpdir(), "sdk-report-"));
    onTestFinished(() => rmSync(out, { recursive: true, force: true }));
    const build: BuildResult = {
      label: "candidate",
      source: "x.js",
      bundle: { bytes: 10, gzipBytes: 5, sha256: "ab".repeat(32) },
      errors: [],
      tests: tests.filter((t: TestOutcome) => t.outcome === "passed"),
      durationMs: 1000,
    };
    const { ok } = writeReport(out, [build], 1000);
    expect(ok).toBe(false);
    const md = readFileSync(path.join(out, "summary.md"), "utf8");
    expect(md).toContain("NOT COVERED");
    expect(readFileSync(path.join(out, "junit", "contract-items.xml"), "utf8")).toContain(
      'failure message="no test covers this contract item"',
    );
  });

  it("shows what changed between a baseline and a candidate", () => {
    const out = mkdtempSync(path.join(tmpdir(), "sdk-report-"));
    onTestFinished(() => rmSync(out, { recursive: true, force: true }));
    const base = (label: string, list: TestOutcome[], bytes: number): BuildResult => ({
      label,
      source: `${label}.js`,
      bundle: { bytes, gzipBytes: bytes / 2, sha256: label.padEnd(64, "0") },
      errors: [],
      tests: list,
      durationMs: 1,
    });
    const passedAll = tests.map((t) => ({ ...t, outcome: "passed" as const }));
    writeReport(out, [base("candidate", tests, 1200), base("baseline", passedAll, 1000)], 2);
    const md = readFileSync(path.join(out, "summary.md"), "utf8");
    expect(md).toContain("Bundle: +200 B raw, +100 B gzipped.");
    expect(md).toContain("hasActiveTradeIn()**: pass → fail");
    expect(md).toMatch(/an expired valuation makes Service Pay ask.*: passed → \*\*failed\*\*/);
  });
});

describe("the staging run's coverage of the contract items", () => {
  const FIXTURE_SKIP =
    "needs a service fixture (…): SERVICE_FIXTURE=none, the service under test has no control API";
  const test = (title: string, outcome: TestOutcome["outcome"], extra: Partial<TestOutcome> = {}) =>
    ({
      suite: "storefront",
      file: "f.e2e.ts",
      title,
      outcome,
      durationMs: 1,
      needsEmulator: title.includes("@emulator"),
      ...(outcome === "skipped" ? { reason: FIXTURE_SKIP } : {}),
      ...extra,
    }) satisfies TestOutcome;
  const items: ContractItem[] = [
    {
      group: "G",
      name: "seen by a shopper",
      section: "S",
      tests: [{ suite: "storefront", title: /^pays/ }],
    },
    {
      group: "G",
      name: "webhook faults",
      section: "S",
      tests: [{ suite: "storefront", title: /^a failed delivery/ }],
      needsEmulator: "injects a failed delivery (control API)",
    },
  ];

  it("with the bundled emulator: the items a test not tagged @emulator covers", () => {
    const tests = [
      test("pays", "passed"),
      test("a failed delivery is retried @emulator", "passed"),
    ];
    const coverage = stagingCoverage({ tests }, items);
    expect(coverage.covered.map((i) => i.name)).toEqual(["seen by a shopper"]);
    expect(coverage.needEmulator.map((i) => i.name)).toEqual(["webhook faults"]);
    expect(coverage.disagreements).toEqual([]);
  });

  it("in a staging run: the items a test that ran covers", () => {
    const tests = [
      test("pays", "failed"),
      test("a failed delivery is retried @emulator", "skipped"),
    ];
    const coverage = stagingCoverage({ tests, withoutServiceFixture: true }, items);
    expect(coverage.covered.map((i) => i.name)).toEqual(["seen by a shopper"]);
    expect(coverage.disagreements).toEqual([]);
  });

  it("disagrees when an item's needsEmulator and its tests do not match", () => {
    const tests = [
      test("pays @emulator", "passed"),
      test("a failed delivery is retried", "passed"),
    ];
    expect(stagingCoverage({ tests }, items).disagreements).toEqual([
      "no test without the bundled emulator covers contract item G › seen by a shopper: add one, or say why in its needsEmulator",
      'contract item G › webhook faults is covered without the bundled emulator, yet its needsEmulator says "injects a failed delivery (control API)"',
    ]);
  });

  it("in a staging run, disagrees when a test's @emulator tag and what its fixtures did do not match", () => {
    const tests = [
      test("pays", "skipped"),
      test("a failed delivery is retried @emulator", "passed"),
      test("shop only", "skipped", { reason: "needs the bundled emulator" }),
    ];
    expect(stagingCoverage({ tests, withoutServiceFixture: true }, items).disagreements).toEqual([
      "no test without the bundled emulator covers contract item G › seen by a shopper: add one, or say why in its needsEmulator",
      'contract item G › webhook faults is covered without the bundled emulator, yet its needsEmulator says "injects a failed delivery (control API)"',
      "pays: skipped without the service fixture, yet not tagged @emulator",
      "a failed delivery is retried @emulator: tagged @emulator, yet it ran without the service fixture",
    ]);
  });

  it("every contract item either says why it needs the emulator or names a storefront test", () => {
    for (const item of CONTRACT_ITEMS) {
      expect(
        Boolean(item.needsEmulator) || item.tests.some((t) => t.suite === "storefront"),
        `${item.group} › ${item.name}`,
      ).toBe(true);
    }
  });

  it("the report says how many items the staging run covers and why the others need the emulator; a disagreement fails it", () => {
    const out = mkdtempSync(path.join(tmpdir(), "sdk-report-"));
    onTestFinished(() => rmSync(out, { recursive: true, force: true }));
    const build: BuildResult = {
      label: "candidate",
      source: "https://staging.example/assets/v1/main.js",
      bundle: { bytes: 10, gzipBytes: 5, sha256: "ab".repeat(32) },
      errors: [],
      // A staging run in which a test tagged @emulator ran (go-live scenario 1 covers 18 items).
      tests: [test("go-live scenario 1: teaser @emulator", "passed")],
      durationMs: 1000,
      withoutServiceFixture: true,
    };
    const { ok, text } = writeReport(out, [build], 1000);
    expect(ok).toBe(false);
    expect(text).toContain(
      `the staging run covers 18 of ${CONTRACT_ITEMS.length} contract SDK items`,
    );
    const md = readFileSync(path.join(out, "summary.md"), "utf8");
    expect(md).toContain(
      `- candidate: the staging run covers **18 of ${CONTRACT_ITEMS.length}** contract SDK items (the tests that ran in this staging run)`,
    );
    expect(md).toContain(
      "| Localisation | texts in the page's language (es) | only the SDK test page, served by the bundled emulator, exercises a page in Spanish (the shop's pages are in English) |",
    );
    expect(md).toContain(
      "- candidate: go-live scenario 1: teaser @emulator: tagged @emulator, yet it ran without the service fixture",
    );
    expect(readFileSync(path.join(out, "index.html"), "utf8")).toContain(
      "the staging run covers <strong>18 of",
    );
  });
});
