// One accessibility scan for every browser test here (the storefront's journeys, the emulator's
// SDK pages and inspector): axe-core's own `axe.run` in the page, the WCAG 2.1 A/AA rules, only
// the violations collected. Neutral tooling outside lib/ and app/, like ./chromium-launch.ts, so
// the emulator's tests may import it without importing storefront code.
//
// Why not @axe-core/playwright's analyze(): besides injecting axe into every frame it opens a
// blank page for every scan to finish the run across frames, about three quarters of a scan's
// time here (2 s against 0.5 s on a checkout page). Pages without frames are scanned in place,
// axe injected once per document; a page with frames still goes through AxeBuilder, so nothing
// is left unscanned.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import type { Result } from "axe-core";

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

export const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

export interface AxeScanOptions {
  /** A CSS selector: scan only inside it (default: the whole page). */
  include?: string;
  /** axe rule tags (default: WCAG 2.1 A and AA). */
  tags?: string[];
}

/** The axe violations on the page (empty = pass). */
export async function axeViolations(page: Page, options: AxeScanOptions = {}): Promise<Result[]> {
  const tags = options.tags ?? WCAG_AA;
  if (page.frames().length > 1) {
    let builder = new AxeBuilder({ page }).withTags(tags);
    if (options.include) builder = builder.include(options.include);
    return (await builder.analyze()).violations;
  }
  const injected = await page.evaluate(() => "axe" in window);
  if (!injected) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ include, tags }) => {
      const axe = (window as unknown as { axe: typeof import("axe-core") }).axe;
      const results = await axe.run(include ? { include: [include] } : document, {
        runOnly: { type: "tag", values: tags },
        resultTypes: ["violations"],
      });
      return results.violations;
    },
    { include: options.include ?? null, tags },
  );
}
