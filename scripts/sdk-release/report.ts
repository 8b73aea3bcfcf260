// sdk-release-report/: summary.md and index.html (the same content), junit/ (Playwright's JUnit
// XML per build and suite, plus contract-items.xml with one test case per item and build) and
// results.json (every test outcome, for tools: npm test's count, the mutation run).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CONTRACT_ITEMS, type ContractItem } from "./contract-items";
import type { TestOutcome } from "./results";
import type { BuildResult } from "./run";
import {
  compareSurfaces,
  SURFACES_CSS,
  type SurfaceRow,
  surfaceCount,
  surfacesHtml,
  surfacesMarkdown,
} from "./surfaces";

export type ItemStatus = "pass" | "fail" | "skipped" | "not covered";

export interface ItemRow {
  item: ContractItem;
  perBuild: { status: ItemStatus; tests: TestOutcome[] }[];
}

export function itemStatus(item: ContractItem, tests: TestOutcome[]) {
  const mine = tests.filter((t) =>
    item.tests.some((ref) => ref.suite === t.suite && ref.title.test(t.title)),
  );
  const status: ItemStatus =
    mine.length === 0
      ? "not covered"
      : mine.some((t) => t.outcome === "failed")
        ? "fail"
        : mine.every((t) => t.outcome === "skipped")
          ? "skipped"
          : "pass";
  return { status, tests: mine };
}

export interface StagingCoverage {
  /** the contract items a run without the bundled emulator covers */
  covered: ContractItem[];
  /** the others: each says why in `needsEmulator` (contract-items.ts) */
  needEmulator: ContractItem[];
  /** where the tests and the declarations disagree; any fails the report */
  disagreements: string[];
}

/** A test the fixtures skipped for want of a service fixture (e2e/support/service-fixture.ts). */
const skippedForFixture = (t: TestOutcome) =>
  t.outcome === "skipped" && (t.reason ?? "").includes("SERVICE_FIXTURE=none");

/**
 * What the staging run (./selection.ts) covers of the contract's SDK items. From a staging run,
 * the tests that ran; from a run with the bundled emulator, the tests that would (not tagged
 * @emulator, not on the SDK test page). Checked against each item's `needsEmulator`, and in a
 * staging run each test's @emulator tag against what its fixtures did.
 */
export function stagingCoverage(
  build: Pick<BuildResult, "tests" | "withoutServiceFixture">,
  items: ContractItem[] = CONTRACT_ITEMS,
): StagingCoverage {
  const staging = build.withoutServiceFixture === true;
  const runsWithoutEmulator = (t: TestOutcome) =>
    staging ? t.outcome !== "skipped" : !t.needsEmulator;
  const covered: ContractItem[] = [];
  const needEmulator: ContractItem[] = [];
  const disagreements: string[] = [];
  for (const item of items) {
    const name = `${item.group} › ${item.name}`;
    if (itemStatus(item, build.tests).tests.some(runsWithoutEmulator)) {
      covered.push(item);
      if (item.needsEmulator) {
        disagreements.push(
          `contract item ${name} is covered without the bundled emulator, yet its needsEmulator says "${item.needsEmulator}"`,
        );
      }
    } else {
      needEmulator.push(item);
      if (!item.needsEmulator) {
        disagreements.push(
          `no test without the bundled emulator covers contract item ${name}: add one, or say why in its needsEmulator`,
        );
      }
    }
  }
  if (staging) {
    for (const t of build.tests.filter((t) => t.suite === "storefront")) {
      if (t.needsEmulator && t.outcome !== "skipped") {
        disagreements.push(`${t.title}: tagged @emulator, yet it ran without the service fixture`);
      }
      if (!t.needsEmulator && skippedForFixture(t)) {
        disagreements.push(
          `${t.title}: skipped without the service fixture, yet not tagged @emulator`,
        );
      }
    }
  }
  return { covered, needEmulator, disagreements };
}

function stagingSection(results: BuildResult[], coverage: StagingCoverage[]): string[] {
  const [first] = coverage;
  if (!first) return [];
  const lines = [
    "## Without the bundled emulator (a staging service)",
    "",
    ...results.map(
      (r, i) =>
        `- ${r.label}: the staging run covers **${coverage[i]?.covered.length} of ${CONTRACT_ITEMS.length}** contract SDK items (${r.withoutServiceFixture ? "the tests that ran in this staging run" : "the tests not tagged @emulator, the ones a staging run runs"})`,
    ),
    "",
    "The items that need the bundled emulator, and why (`needsEmulator` in scripts/sdk-release/contract-items.ts):",
    "",
    "| Group | Item | Why |",
    "|---|---|---|",
    ...first.needEmulator.map(
      (item) =>
        `| ${item.group} | ${cell(item.name)} | ${cell(item.needsEmulator ?? "**not said**")} |`,
    ),
    "",
  ];
  const disagreements = coverage.flatMap((c, i) =>
    c.disagreements.map((d) => `- ${results[i]?.label}: ${d}`),
  );
  if (disagreements.length) {
    lines.push(
      "**The tests and the declarations disagree** (this fails the run):",
      "",
      ...disagreements,
      "",
    );
  }
  return lines;
}

const ICON: Record<ItemStatus, string> = {
  pass: "✅ pass",
  fail: "❌ FAIL",
  skipped: "⏭ skipped",
  "not covered": "⚠ NOT COVERED",
};
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

function sizes(results: BuildResult[]): string[] {
  const lines = [
    "## Bundle size",
    "",
    "| Build | Source | main.js | gzipped | SHA-256 |",
    "|---|---|---|---|---|",
  ];
  for (const r of results) {
    const b = r.bundle;
    lines.push(
      `| ${r.label} | ${cell(r.source)} | ${b ? `${b.bytes} B (${kb(b.bytes)})` : "—"} | ${b ? `${b.gzipBytes} B (${kb(b.gzipBytes)})` : "—"} | ${b ? `\`${b.sha256.slice(0, 16)}…\`` : "—"} |`,
    );
  }
  return lines;
}

function changes(results: BuildResult[], rows: ItemRow[]): string[] {
  const [candidate, baseline] = results;
  if (!candidate || !baseline) return [];
  const lines = ["## What changed between the builds (baseline → candidate)", ""];
  if (candidate.bundle && baseline.bundle) {
    const same = candidate.bundle.sha256 === baseline.bundle.sha256;
    lines.push(
      same
        ? "- The two bundles are byte for byte identical."
        : `- Bundle: ${signed(candidate.bundle.bytes - baseline.bundle.bytes)} B raw, ${signed(candidate.bundle.gzipBytes - baseline.bundle.gzipBytes)} B gzipped.`,
    );
  }
  const itemChanges = rows.filter((r) => r.perBuild[0]?.status !== r.perBuild[1]?.status);
  for (const r of itemChanges) {
    lines.push(
      `- Contract item **${r.item.group} › ${r.item.name}**: ${r.perBuild[1]?.status} → ${r.perBuild[0]?.status}`,
    );
  }
  const key = (t: TestOutcome) => `${t.suite}: ${t.title}`;
  const before = new Map(baseline.tests.map((t) => [key(t), t]));
  const testChanges: string[] = [];
  for (const t of candidate.tests) {
    const was = before.get(key(t));
    if (!was) testChanges.push(`- New test ${key(t)}: ${t.outcome}`);
    else if (was.outcome !== t.outcome)
      testChanges.push(`- ${key(t)}: ${was.outcome} → **${t.outcome}**`);
  }
  lines.push(...testChanges);
  if (itemChanges.length === 0 && testChanges.length === 0) {
    lines.push("- Every test and every contract item has the same outcome on both builds.");
  }
  return lines;
}

/** Each suite's wall time and CPU-seconds, and the machine's (./cpu.ts; "not measured" off Linux). */
export function suiteTimes(r: Pick<BuildResult, "suites" | "machineCpuSeconds">): string {
  if (!r.suites?.length) return "";
  const cpu = (seconds: number | null | undefined) =>
    seconds === null || seconds === undefined ? "CPU not measured" : `${seconds.toFixed(0)} CPU-s`;
  const parts = r.suites.map(
    (t) => `${t.name} ${(t.wallMs / 1000).toFixed(0)} s wall, ${cpu(t.cpuSeconds)}`,
  );
  return ` (${parts.join("; ")}; the machine ${cpu(r.machineCpuSeconds)} in all)`;
}

/** ", N of them on the time limit" when any failure ran out of time (see results.ts waitingFor). */
function timeouts(r: BuildResult): string {
  const n = r.tests.filter((t) => t.timedOutWaitingFor !== undefined).length;
  return n > 0 ? ` (${n} of them on the time limit)` : "";
}

function failures(results: BuildResult[]): string[] {
  const lines: string[] = [];
  for (const r of results) {
    const bad = r.tests.filter((t) => t.outcome === "failed");
    if (bad.length === 0 && r.errors.length === 0) continue;
    lines.push(`### ${r.label}`, "");
    for (const e of r.errors) lines.push(`- **run error**: ${e}`);
    for (const t of bad) {
      lines.push(
        `- **${where(t)}: ${t.title}** (${t.file})`,
        ...(t.timedOutWaitingFor
          ? ["", `  Timed out waiting for: \`${t.timedOutWaitingFor}\``]
          : []),
        "",
        "  ```",
        ...(t.error ?? "").split("\n").map((l) => `  ${l}`),
        "  ```",
      );
    }
    lines.push("");
  }
  return lines.length ? ["## Failures", "", ...lines] : [];
}

/** The suite, and the project when it is not the suite's own name (a service variant's copy). */
function where(t: TestOutcome): string {
  return t.project && t.project !== t.suite ? `${t.suite} [${t.project}]` : t.suite;
}

function skips(results: BuildResult[]): string[] {
  const lines: string[] = [];
  for (const r of results) {
    const skipped = r.tests.filter((t) => t.outcome === "skipped");
    if (skipped.length === 0) continue;
    lines.push(`### ${r.label}: ${skipped.length} skipped`, "");
    const byReason = new Map<string, TestOutcome[]>();
    for (const t of skipped)
      byReason.set(t.reason ?? "", [...(byReason.get(t.reason ?? "") ?? []), t]);
    for (const [reason, list] of byReason) {
      lines.push(`- ${reason}:`);
      for (const t of list) lines.push(`  - ${where(t)}: ${t.title}`);
    }
    lines.push("");
  }
  return lines.length ? ["## Skipped, with the reason", "", ...lines] : [];
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function itemsJunit(results: BuildResult[], rows: ItemRow[]): string {
  const suites = results.map((r, i) => {
    const cases = rows.map((row) => {
      const { status, tests } = row.perBuild[i] ?? { status: "not covered", tests: [] };
      const name = escapeXml(`${row.item.group} › ${row.item.name}`);
      const body =
        status === "fail"
          ? `<failure message="${escapeXml(
              tests
                .filter((t) => t.outcome === "failed")
                .map((t) => t.title)
                .join("; "),
            )}"/>`
          : status === "not covered"
            ? `<failure message="no test covers this contract item"/>`
            : status === "skipped"
              ? `<skipped message="${escapeXml(tests[0]?.reason ?? "skipped")}"/>`
              : "";
      return `    <testcase classname="sdk-contract.${r.label}" name="${name}">${body}</testcase>`;
    });
    const count = (s: ItemStatus) => rows.filter((row) => row.perBuild[i]?.status === s).length;
    return `  <testsuite name="SDK contract items (${r.label})" tests="${rows.length}" failures="${count("fail") + count("not covered")}" skipped="${count("skipped")}">\n${cases.join("\n")}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${suites.join("\n")}\n</testsuites>\n`;
}

function markdownBody(markdown: string): string {
  // Enough Markdown for this report: headings, tables, lists, code blocks, bold and code spans.
  const inline = (s: string) =>
    escapeXml(s)
      .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
      .replace(/`([^`]+)`/g, "<code>$1</code>");
  const out: string[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.trim().startsWith("```")) {
      const code: string[] = [];
      for (i++; i < lines.length && !(lines[i] ?? "").trim().startsWith("```"); i++)
        code.push(lines[i] ?? "");
      out.push(`<pre>${escapeXml(code.join("\n"))}</pre>`);
    } else if (line.startsWith("|")) {
      const rows: string[] = [];
      for (; i < lines.length && (lines[i] ?? "").startsWith("|"); i++) rows.push(lines[i] ?? "");
      i--;
      const cells = (r: string) =>
        r
          .slice(1, -1)
          .split(/(?<!\\)\|/)
          .map((c) => inline(c.trim().replace(/\\\|/g, "|")));
      const [head, , ...body] = rows;
      out.push(
        `<table><thead><tr>${cells(head ?? "")
          .map((c) => `<th>${c}</th>`)
          .join("")}</tr></thead><tbody>${body
          .map(
            (r) =>
              `<tr>${cells(r)
                .map(
                  (c) =>
                    `<td class="${/FAIL|NOT COVERED/.test(c) ? "bad" : /skipped/.test(c) ? "skip" : ""}">${c}</td>`,
                )
                .join("")}</tr>`,
          )
          .join("")}</tbody></table>`,
      );
    } else if (/^#{1,3} /.test(line)) {
      const level = line.indexOf(" ");
      out.push(`<h${level}>${inline(line.slice(level + 1))}</h${level}>`);
    } else if (/^\s*- /.test(line)) {
      out.push(
        `<li style="margin-left:${line.indexOf("-")}em">${inline(line.replace(/^\s*- /, ""))}</li>`,
      );
    } else if (line.trim()) {
      out.push(`<p>${inline(line)}</p>`);
    }
  }
  return out.join("\n");
}

function htmlPage(body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>SDK release report</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
table{border-collapse:collapse;margin:1rem 0;width:100%}th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f2f2f2}td.bad{background:#fde2e2;font-weight:600}td.skip{background:#fff6d6}
pre{background:#f6f6f6;padding:.5rem;overflow:auto}li{list-style:disc inside}code{font-size:90%}
${SURFACES_CSS}</style></head><body>
${body}
</body></html>
`;
}

/**
 * The surfaces each build's capture left in <out>/<build>/surfaces (run.ts sets SDK_SURFACES_DIR
 * there), the candidate against the baseline when there is one.
 */
function buildSurfaces(out: string, results: BuildResult[]): SurfaceRow[] {
  const dirOf = (label: string) =>
    results.some((r) => r.label === label) ? path.join(out, label, "surfaces") : undefined;
  const candidate = dirOf("candidate");
  return candidate ? compareSurfaces(out, candidate, dirOf("baseline")) : [];
}

/** Writes the report; returns the plain-text verdict for the console. */
export function writeReport(
  out: string,
  results: BuildResult[],
  durationMs: number,
): { text: string; ok: boolean } {
  const rows: ItemRow[] = CONTRACT_ITEMS.map((item) => ({
    item,
    perBuild: results.map((r) => itemStatus(item, r.tests)),
  }));
  const count = (r: BuildResult, o: string) => r.tests.filter((t) => t.outcome === o).length;
  const uncovered = rows.filter((row) => row.perBuild.some((b) => b.status === "not covered"));
  const coverage = results.map((r) => stagingCoverage(r));
  const ok =
    uncovered.length === 0 &&
    coverage.every((c) => c.disagreements.length === 0) &&
    results.every((r) => r.errors.length === 0 && count(r, "failed") === 0);
  const verdict = results.map(
    (r, i) =>
      `${r.label} (${r.source}): ${count(r, "passed")} passed, ${count(r, "failed")} failed${timeouts(r)}, ${count(r, "skipped")} skipped${r.errors.length ? `, ${r.errors.length} run errors` : ""} in ${(r.durationMs / 1000).toFixed(0)} s${suiteTimes(r)}; the staging run covers ${coverage[i]?.covered.length} of ${CONTRACT_ITEMS.length} contract SDK items${coverage[i]?.disagreements.length ? ` (${coverage[i]?.disagreements.length} disagreements with their declarations)` : ""}`,
  );
  const surfaces = buildSurfaces(out, results);
  const head = [
    "# SDK release report",
    "",
    `**${ok ? "PASSED" : "FAILED"}** — both browser suites (the SDK on the emulator's test page, emulator/e2e; the storefront, e2e/) in ${(durationMs / 1000).toFixed(0)} s.`,
    "",
    ...verdict.map((v) => `- ${v}`),
    ...(uncovered.length ? [`- ${uncovered.length} contract items NOT COVERED by any test`] : []),
    "",
    "## Contract SDK items",
    "",
    `An item passes when every test that exercises it passed (see scripts/sdk-release/contract-items.ts for the tests of each item).`,
    "",
    `| Group | Item | ${results.map((r) => r.label).join(" | ")} | Tests |`,
    `|---|---|${results.map(() => "---|").join("")}---|`,
    ...rows.map(
      (row) =>
        `| ${row.item.group} | ${cell(row.item.name)} | ${row.perBuild.map((b) => ICON[b.status]).join(" | ")} | ${row.perBuild[0]?.tests.length ?? 0} |`,
    ),
    "",
    ...stagingSection(results, coverage),
    ...changes(results, rows),
    "",
  ];
  const tail = [
    ...sizes(results),
    "",
    ...failures(results),
    ...skips(results),
    "## Files",
    "",
    "- `junit/<build>-sdk-page.xml`, `junit/<build>-storefront.xml`: every test, JUnit XML (Playwright)",
    "- `junit/contract-items.xml`: one test case per contract item and build",
    "- `results.json`: every test outcome; `<build>/main.js`: the exact bundle tested",
    "- `<build>/surfaces/`: each SDK surface as a PNG, with a manifest per set; `surfaces-diff/`: the differing pixels of each changed surface",
    "- traces of failed tests: `test-results/` (open with `npx playwright show-trace`)",
    "",
  ];
  const md = [...head, ...surfacesMarkdown(surfaces), "", ...tail].join("\n");
  mkdirSync(path.join(out, "junit"), { recursive: true });
  writeFileSync(path.join(out, "summary.md"), md);
  writeFileSync(
    path.join(out, "index.html"),
    htmlPage(
      [markdownBody(head.join("\n")), surfacesHtml(surfaces), markdownBody(tail.join("\n"))].join(
        "\n",
      ),
    ),
  );
  writeFileSync(path.join(out, "junit", "contract-items.xml"), itemsJunit(results, rows));
  writeFileSync(
    path.join(out, "results.json"),
    `${JSON.stringify(
      {
        ok,
        duration_ms: durationMs,
        builds: results,
        surfaces,
        items: rows.map((row) => ({
          group: row.item.group,
          name: row.item.name,
          status: row.perBuild.map((b) => b.status),
          ...(row.item.needsEmulator ? { needs_emulator: row.item.needsEmulator } : {}),
        })),
        staging: coverage.map((c) => ({
          covered: c.covered.length,
          of: CONTRACT_ITEMS.length,
          disagreements: c.disagreements,
        })),
      },
      null,
      2,
    )}\n`,
  );
  return { text: [...verdict, `Surfaces: ${surfaceCount(surfaces)}`].join("\n"), ok };
}
