// The readiness report as text, and which rules block a run (the CLI's exit code).
import type { ReadinessReport } from "./report";

const MARK = { pass: "✓ pass   ", fail: "✗ FAIL   ", not_exercised: "· not yet" } as const;

export function formatReport(
  report: ReadinessReport,
  explained: Record<string, string> = {},
): string {
  const lines = [`Go-live readiness of ${report.merchant_id} (${report.generated_at})`];
  for (const group of report.groups) {
    lines.push("", group.title);
    for (const rule of group.rules) {
      lines.push(`  ${MARK[rule.verdict]}  ${rule.id}: ${rule.sentence}`);
      if (rule.verdict !== "pass") lines.push(`             Contract: ${rule.section}`);
      const why = rule.verdict === "not_exercised" ? explained[rule.id] : undefined;
      lines.push(`             ${why ? `Explained: ${why}` : rule.note}`);
      for (const e of rule.verdict === "fail" ? rule.evidence : []) {
        lines.push(
          `             Evidence: #${e.seq} ${e.summary}${e.entry ? " (before a reset)" : ""}`,
        );
      }
    }
  }
  const s = report.summary;
  lines.push(
    "",
    `${s.pass} pass, ${s.fail} fail, ${s.not_exercised} not yet exercised` +
      (report.active_checks ? "" : " (active checks not run)"),
  );
  return lines.join("\n");
}

/** Rules that make the run fail: failures, and with `strict` unexplained rules not exercised. */
export function blockingRules(
  report: ReadinessReport,
  strict: boolean,
  explained: Record<string, string> = {},
): string[] {
  return report.groups
    .flatMap((g) => g.rules)
    .filter(
      (r) => r.verdict === "fail" || (strict && r.verdict === "not_exercised" && !explained[r.id]),
    )
    .map((r) => r.id);
}
