import { describe, expect, it } from "vitest";
import type { Verdict } from "./findings";
import { mergeReports, type ReadinessReport } from "./report";

// A run spread over several emulators (one per test worker): each emulator saw part of it.

function reportWith(
  verdicts: Record<string, Verdict>,
  at = "2026-01-01T00:00:00.000Z",
): ReadinessReport {
  const rules = Object.entries(verdicts).map(([id, verdict]) => ({
    id,
    group: "g",
    kind: "passive" as const,
    section: "§",
    sentence: id,
    verdict,
    note: `${id} ${verdict}`,
    evidence:
      verdict === "not_exercised" ? [] : [{ seq: 7, epoch: 1, at, summary: `POST /${id} → 200` }],
  }));
  return {
    merchant_id: "m_demo",
    generated_at: at,
    ready: !Object.values(verdicts).includes("fail"),
    summary: { pass: 0, fail: 0, not_exercised: 0 },
    active_checks: null,
    groups: [{ id: "g", title: "G", rules: rules as ReadinessReport["groups"][0]["rules"] }],
  };
}

describe("mergeReports", () => {
  it("fails a rule that failed on any emulator, passes one exercised on only one, counts again", () => {
    const merged = mergeReports([
      {
        source: "localhost:4010",
        report: reportWith({ a: "pass", b: "not_exercised", c: "pass" }),
      },
      {
        source: "localhost:4011",
        report: reportWith(
          { a: "not_exercised", b: "pass", c: "fail" },
          "2026-01-01T00:01:00.000Z",
        ),
      },
    ]);
    const rules = merged.groups[0]?.rules ?? [];
    expect(rules.map((r) => [r.id, r.verdict])).toEqual([
      ["a", "pass"],
      ["b", "pass"],
      ["c", "fail"],
    ]);
    expect(merged.summary).toEqual({ pass: 2, fail: 1, not_exercised: 0 });
    expect(merged.ready).toBe(false);
    expect(merged.generated_at).toBe("2026-01-01T00:01:00.000Z");
    // Evidence says which emulator's journal it is in (seq numbers repeat across emulators).
    expect(rules[2]?.evidence[0]?.summary).toBe("localhost:4011: POST /c → 200");
    expect(rules[1]?.evidence[0]?.summary).toBe("localhost:4011: POST /b → 200");
  });

  it("leaves a rule no emulator exercised as not exercised", () => {
    const merged = mergeReports([
      { source: "a", report: reportWith({ a: "not_exercised" }) },
      { source: "b", report: reportWith({ a: "not_exercised" }) },
    ]);
    expect(merged.groups[0]?.rules[0]?.verdict).toBe("not_exercised");
    expect(merged.ready).toBe(true);
  });

  it("returns a single report as it is", () => {
    const one = reportWith({ a: "fail" });
    expect(mergeReports([{ source: "x", report: one }])).toBe(one);
  });
});
