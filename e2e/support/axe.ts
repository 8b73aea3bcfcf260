// Serious and critical WCAG 2.1 A/AA violations on the page, as readable lines (empty = pass).
import type { Page } from "@playwright/test";
import { axeViolations } from "../../scripts/axe-scan";

export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  const violations = await axeViolations(page, include ? { include } : {});
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}
