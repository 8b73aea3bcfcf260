import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PNG } from "pngjs";
import { describe, expect, it, onTestFinished } from "vitest";
import { writeReport } from "./report";
import type { BuildResult } from "./run";
import {
  compareSurfaces,
  ERROR_AND_EMPTY_SURFACES,
  SURFACE_SETS,
  surfacesHtml,
  surfacesMarkdown,
} from "./surfaces";

type Pixel = [number, number, number];
const WHITE: Pixel = [255, 255, 255];
const BLUE: Pixel = [11, 92, 173];

/** A tiny PNG: white, with the given pixels painted. */
function png(width: number, height: number, painted: [number, number, Pixel][] = []): Buffer {
  const image = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) image.data.set([...WHITE, 255], i * 4);
  for (const [x, y, colour] of painted) image.data.set([...colour, 255], (y * width + x) * 4);
  return PNG.sync.write(image);
}

type Shot = { id: string; image?: Buffer; absent?: string };

/** What emulator/e2e/surfaces.e2e.ts leaves for one build: PNGs and a manifest. */
function capture(out: string, label: string, shots: Shot[]): string {
  const dir = path.join(out, label, "surfaces");
  mkdirSync(dir, { recursive: true });
  const surfaces = shots.map((shot) => {
    if (shot.absent) return { id: shot.id, title: `Title of ${shot.id}`, absent: shot.absent };
    const image = shot.image ?? png(4, 3);
    writeFileSync(path.join(dir, `${shot.id}.png`), image);
    const { width, height } = PNG.sync.read(image);
    return { id: shot.id, title: `Title of ${shot.id}`, width, height };
  });
  writeFileSync(path.join(dir, "eur-desktop.manifest.json"), JSON.stringify({ surfaces }));
  return dir;
}

function tempOut(): string {
  const out = mkdtempSync(path.join(tmpdir(), "sdk-surfaces-"));
  onTestFinished(() => rmSync(out, { recursive: true, force: true }));
  return out;
}

describe("compareSurfaces", () => {
  it("marks equal images unchanged, one changed pixel changed with a count of 1 and a diff", () => {
    const out = tempOut();
    const baseline = capture(out, "baseline", [
      { id: "same", image: png(4, 3, [[1, 1, BLUE]]) },
      { id: "one-pixel", image: png(4, 3) },
    ]);
    const candidate = capture(out, "candidate", [
      { id: "same", image: png(4, 3, [[1, 1, BLUE]]) },
      { id: "one-pixel", image: png(4, 3, [[2, 1, BLUE]]) },
    ]);
    const rows = compareSurfaces(out, candidate, baseline);
    expect(rows.map((r) => [r.id, r.mark, r.differentPixels])).toEqual([
      ["one-pixel", "changed", 1],
      ["same", "unchanged", 0],
    ]);
    const changed = rows[0];
    expect(changed?.percent).toBeCloseTo(100 / 12);
    expect(changed?.diff).toBe("surfaces-diff/one-pixel.png");
    expect(changed?.candidate?.image).toBe("candidate/surfaces/one-pixel.png");
    expect(changed?.baseline?.image).toBe("baseline/surfaces/one-pixel.png");
    // The diff image paints the differing pixel: not the faded white of the rest.
    const diff = PNG.sync.read(readFileSync(path.join(out, "surfaces-diff/one-pixel.png")));
    const at = (x: number, y: number) => [
      ...diff.data.subarray((y * 4 + x) * 4, (y * 4 + x) * 4 + 3),
    ];
    expect(at(2, 1)).not.toEqual(at(0, 0));
    expect(existsSync(path.join(out, "surfaces-diff/same.png"))).toBe(false);
  });

  it("marks a size change changed, with the sizes and no pixel count", () => {
    const out = tempOut();
    const baseline = capture(out, "baseline", [{ id: "teaser", image: png(4, 3) }]);
    const candidate = capture(out, "candidate", [{ id: "teaser", image: png(4, 4) }]);
    expect(compareSurfaces(out, candidate, baseline)).toMatchObject([
      { id: "teaser", mark: "changed", differentPixels: null, note: "size 4×3 → 4×4" },
    ]);
  });

  it("marks a surface of one build only new or missing; absent in both is unchanged", () => {
    const out = tempOut();
    const baseline = capture(out, "baseline", [
      { id: "gone" },
      { id: "option-unavailable", absent: "not shown" },
      { id: "shown-now", absent: "not shown" },
    ]);
    const candidate = capture(out, "candidate", [
      { id: "added" },
      { id: "option-unavailable", absent: "not shown" },
      { id: "shown-now" },
    ]);
    const rows = compareSurfaces(out, candidate, baseline);
    expect(rows.map((r) => [r.id, r.mark])).toEqual([
      ["shown-now", "changed"],
      ["added", "new"],
      ["gone", "missing"],
      ["option-unavailable", "unchanged"],
    ]);
    expect(rows[0]?.note).toBe("now shown (was absent)");
  });

  it("lists the candidate's surfaces as captured without a baseline, and ignores a bad manifest", () => {
    const out = tempOut();
    const candidate = capture(out, "candidate", [{ id: "teaser" }]);
    writeFileSync(
      path.join(candidate, "broken.manifest.json"),
      JSON.stringify({ surfaces: [{ id: "../../etc/passwd", title: "x", width: 1, height: 1 }] }),
    );
    expect(compareSurfaces(out, candidate).map((r) => [r.id, r.mark])).toEqual([
      ["teaser", "captured"],
    ]);
  });
});

describe("the report's Surfaces section", () => {
  const build = (label: string): BuildResult => ({
    label,
    source: `${label}.js`,
    bundle: { bytes: 10, gzipBytes: 5, sha256: label.padEnd(64, "0") },
    errors: [],
    tests: [],
    durationMs: 1,
  });

  it("counts the surfaces in summary.md, lists the changed ones, and does not fail the run for them", () => {
    const out = tempOut();
    capture(out, "baseline", [
      { id: "eur-desktop-teaser-banner-cta" },
      { id: "eur-desktop-wizard-1-device" },
    ]);
    capture(out, "candidate", [
      { id: "eur-desktop-teaser-banner-cta", image: png(4, 3, [[0, 0, BLUE]]) },
      { id: "eur-desktop-wizard-1-device" },
    ]);
    const withoutSurfaces = writeReport(tempOut(), [build("candidate"), build("baseline")], 1);
    const { ok, text } = writeReport(out, [build("candidate"), build("baseline")], 1);
    expect(ok).toBe(withoutSurfaces.ok);
    expect(text).toContain("Surfaces: 2 surfaces, 1 changed, 0 new, 0 missing, 1 unchanged.");
    const md = readFileSync(path.join(out, "summary.md"), "utf8");
    expect(md).toContain("- 2 surfaces, 1 changed, 0 new, 0 missing, 1 unchanged.");
    expect(md).toContain(
      "- **changed** Title of eur-desktop-teaser-banner-cta (`eur-desktop-teaser-banner-cta`): 1 pixels (8.33 %); baseline `baseline/surfaces/eur-desktop-teaser-banner-cta.png`, candidate `candidate/surfaces/eur-desktop-teaser-banner-cta.png`, diff `surfaces-diff/eur-desktop-teaser-banner-cta.png`",
    );
    expect(md).not.toContain("**unchanged**");
    const html = readFileSync(path.join(out, "index.html"), "utf8");
    const changed = html.indexOf('class="surface changed"');
    const unchanged = html.indexOf('class="surface unchanged"');
    expect(changed).toBeGreaterThan(html.indexOf('<h2 id="surfaces">Surfaces</h2>'));
    expect(unchanged).toBeGreaterThan(changed);
    for (const src of [
      "baseline/surfaces/eur-desktop-teaser-banner-cta.png",
      "candidate/surfaces/eur-desktop-teaser-banner-cta.png",
      "surfaces-diff/eur-desktop-teaser-banner-cta.png",
    ]) {
      expect(html).toContain(`<img src="${src}"`);
      expect(existsSync(path.join(out, src))).toBe(true);
    }
    const results = JSON.parse(readFileSync(path.join(out, "results.json"), "utf8"));
    expect(results.surfaces).toHaveLength(2);
  });

  it("shows a gallery of the candidate alone without a baseline, and says when nothing was captured", () => {
    const out = tempOut();
    capture(out, "candidate", [{ id: "eur-phone-payment-summary" }]);
    const rows = compareSurfaces(out, path.join(out, "candidate", "surfaces"));
    expect(surfacesMarkdown(rows)).toContain(
      "- 1 surfaces captured from the candidate (no baseline to compare with).",
    );
    const html = surfacesHtml(rows);
    expect(html).toContain('<img src="candidate/surfaces/eur-phone-payment-summary.png"');
    expect(html).not.toContain("<figcaption>baseline");
    expect(surfacesMarkdown([])[2]).toBe(
      "- No surfaces captured (emulator/e2e/surfaces.e2e.ts did not run).",
    );
  });

  it("escapes a title in the page", () => {
    const html = surfacesHtml([
      { id: "x", title: "<script>", mark: "captured", differentPixels: null, percent: null },
    ]);
    expect(html).toContain("&#60;script&#62;");
    expect(html).not.toContain("<script>");
  });
});

describe("the error and empty states in the comparison", () => {
  it("are each captured by emulator/e2e/surfaces.e2e.ts, and show every error and empty message of the SDK", () => {
    const captureTest = readFileSync(
      path.resolve(import.meta.dirname, "../../emulator/e2e/surfaces.e2e.ts"),
      "utf8",
    );
    for (const name of Object.keys(ERROR_AND_EMPTY_SURFACES)) {
      expect(captureTest, name).toContain(`"${name}"`);
    }
    expect(new Set(Object.values(ERROR_AND_EMPTY_SURFACES))).toEqual(
      new Set([
        "failed",
        "timedOut",
        "pickModel",
        "required",
        "loginTitle",
        "purchaseRejected",
        "cannotPay",
        "emptyCart",
      ]),
    );
  });

  it("one a set with others lacks is listed missing, also with no baseline; a set without any lists nothing", () => {
    const out = tempOut();
    const names = Object.keys(ERROR_AND_EMPTY_SURFACES).filter((n) => n !== "payment-timed-out");
    const candidate = capture(out, "candidate", [
      ...names.map((name) => ({ id: `${SURFACE_SETS[0]}-${name}` })),
      { id: `${SURFACE_SETS[1]}-payment-summary` },
    ]);
    const rows = compareSurfaces(out, candidate);
    expect(rows.filter((r) => r.mark !== "captured").map((r) => [r.id, r.mark])).toEqual([
      [`${SURFACE_SETS[0]}-payment-timed-out`, "missing"],
    ]);
  });
});
