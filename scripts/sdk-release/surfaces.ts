// The SDK's surfaces as the shopper sees them (emulator/e2e/surfaces.e2e.ts writes a PNG per
// surface and a manifest per set into <out>/<build>/surfaces), baseline beside candidate: a diff
// image, the number of differing pixels and a mark per surface. A changed surface does not fail
// the run: it is for the SDK engineer to look at before release (words, layout, formatting that
// no assertion names).
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";
import { z } from "zod";
import type { MessageKey } from "../../emulator/sdk/format";

/** The capture's sets (emulator/e2e/surfaces.e2e.ts): each currency on each device. */
export const SURFACE_SETS = ["eur-desktop", "eur-phone", "gbp-desktop", "gbp-phone"] as const;

/**
 * Every error and empty state of the SDK's surfaces, captured in each set by
 * emulator/e2e/surfaces.e2e.ts, with the SDK's message it shows (emulator/sdk/format.ts). A set
 * that shows some of them and lacks one lists it as missing, so no such state drops out of the
 * comparison unseen (its words are read by emulator/e2e/every-word.e2e.ts; its look only a person judges).
 */
export const ERROR_AND_EMPTY_SURFACES: Record<string, MessageKey> = {
  "wizard-failed": "failed",
  "wizard-timed-out": "timedOut",
  "wizard-1-no-model": "pickModel",
  "wizard-2-unanswered": "required",
  "wizard-login": "loginTitle",
  "payment-open-failed": "failed",
  "payment-failed": "failed",
  "payment-timed-out": "timedOut",
  "payment-rejected": "purchaseRejected",
  "payment-cannot-pay": "cannotPay",
  "payment-empty-cart": "emptyCart",
  "payment-login": "loginTitle",
};

/** unchanged / changed / new / missing against a baseline; captured: no baseline to compare with */
export type SurfaceMark = "changed" | "new" | "missing" | "unchanged" | "captured";

/** One build's picture of a surface: an image (path relative to the report) or "absent". */
export interface SurfaceSide {
  image?: string;
  width?: number;
  height?: number;
  /** the surface is meant not to be there (e.g. the option in mode unavailable), and why */
  absent?: string;
}

export interface SurfaceRow {
  id: string;
  title: string;
  mark: SurfaceMark;
  candidate?: SurfaceSide;
  baseline?: SurfaceSide;
  /** the diff image (path relative to the report), when both images have the same size */
  diff?: string;
  /** differing pixels (pixelmatch), null when the sizes differ or a side is absent */
  differentPixels: number | null;
  /** differingPixels as a percentage of the image's pixels */
  percent: number | null;
  /** what changed when there is no pixel count: a size, an absence */
  note?: string;
}

// The manifest is written by a test, read here: validated and bounded like any other input.
const MAX_MANIFEST_BYTES = 1_000_000;
const MAX_IMAGE_BYTES = 20_000_000;
const id = z.string().regex(/^[a-z0-9_-]{1,120}$/);
const title = z.string().min(1).max(300);
const dimension = z.number().int().positive().max(10_000);
const manifestSchema = z
  .object({
    surfaces: z
      .array(
        z.union([
          z.object({ id, title, width: dimension, height: dimension }).strict(),
          z.object({ id, title, absent: z.string().min(1).max(500) }).strict(),
        ]),
      )
      .max(1000),
  })
  .strict();

/** The surfaces a build's capture left in `dir`, in the order they were captured. */
export function readSurfaces(
  dir: string,
  out: string,
): Map<string, { title: string; side: SurfaceSide; file?: string }> {
  const found = new Map<string, { title: string; side: SurfaceSide; file?: string }>();
  if (!existsSync(dir)) return found;
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith(".manifest.json")) continue;
    const file = path.join(dir, name);
    if (statSync(file).size > MAX_MANIFEST_BYTES) continue;
    const parsed = manifestSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    if (!parsed.success) continue;
    for (const entry of parsed.data.surfaces) {
      if ("absent" in entry) {
        found.set(entry.id, { title: entry.title, side: { absent: entry.absent } });
        continue;
      }
      const png = path.join(dir, `${entry.id}.png`);
      if (!existsSync(png) || statSync(png).size > MAX_IMAGE_BYTES) continue;
      found.set(entry.id, {
        title: entry.title,
        file: png,
        side: {
          image: path.relative(out, png).split(path.sep).join("/"),
          width: entry.width,
          height: entry.height,
        },
      });
    }
  }
  return found;
}

/** The set of a surface id ("eur-desktop-wizard-failed" → "eur-desktop"). */
function setOf(surfaceId: string): string {
  return SURFACE_SETS.find((set) => surfaceId.startsWith(`${set}-`)) ?? "";
}

const RANK: Record<SurfaceMark, number> = {
  changed: 0,
  new: 1,
  missing: 2,
  unchanged: 3,
  captured: 4,
};

/**
 * Every surface present in either build, compared. Without a baseline directory the candidate's
 * surfaces are listed as captured (a gallery). Diff images go to <out>/surfaces-diff/.
 */
export function compareSurfaces(
  out: string,
  candidateDir: string,
  baselineDir?: string,
): SurfaceRow[] {
  const candidate = readSurfaces(candidateDir, out);
  const baseline = baselineDir ? readSurfaces(baselineDir, out) : new Map();
  const ids = [...new Set([...candidate.keys(), ...baseline.keys()])];
  // An error or empty state a set lacks while it shows others (its capture stopped before it, or
  // no longer shoots it): missing.
  const states = Object.keys(ERROR_AND_EMPTY_SURFACES);
  const captured = new Set(
    [...candidate.keys()]
      .filter((surfaceId) => states.some((name) => surfaceId === `${setOf(surfaceId)}-${name}`))
      .map(setOf),
  );
  const lacking = SURFACE_SETS.filter((set) => captured.has(set)).flatMap((set) =>
    Object.keys(ERROR_AND_EMPTY_SURFACES)
      .map((name) => `${set}-${name}`)
      .filter((surfaceId) => !candidate.has(surfaceId)),
  );
  const rows = ids.map((surfaceId): SurfaceRow => {
    const now = candidate.get(surfaceId);
    const was = baseline.get(surfaceId);
    const row: SurfaceRow = {
      id: surfaceId,
      title: now?.title ?? was?.title ?? surfaceId,
      mark: "captured",
      ...(now ? { candidate: now.side } : {}),
      ...(was ? { baseline: was.side } : {}),
      differentPixels: null,
      percent: null,
    };
    if (!baselineDir) return row;
    if (!was) return { ...row, mark: "new" };
    if (!now) return { ...row, mark: "missing" };
    if (now.side.absent !== undefined || was.side.absent !== undefined) {
      const both = now.side.absent !== undefined && was.side.absent !== undefined;
      return {
        ...row,
        mark: both ? "unchanged" : "changed",
        ...(both
          ? {}
          : { note: now.side.absent !== undefined ? "now absent" : "now shown (was absent)" }),
      };
    }
    const a = PNG.sync.read(readFileSync(was.file as string));
    const b = PNG.sync.read(readFileSync(now.file as string));
    if (a.width !== b.width || a.height !== b.height) {
      return {
        ...row,
        mark: "changed",
        note: `size ${a.width}×${a.height} → ${b.width}×${b.height}`,
      };
    }
    const diff = new PNG({ width: a.width, height: a.height });
    const count = pixelmatch(a.data, b.data, diff.data, a.width, a.height, { threshold: 0.1 });
    const percent = (count / (a.width * a.height)) * 100;
    if (count === 0) return { ...row, mark: "unchanged", differentPixels: 0, percent: 0 };
    const diffFile = path.join(out, "surfaces-diff", `${surfaceId}.png`);
    mkdirSync(path.dirname(diffFile), { recursive: true });
    writeFileSync(diffFile, PNG.sync.write(diff));
    return {
      ...row,
      mark: "changed",
      differentPixels: count,
      percent,
      diff: path.relative(out, diffFile).split(path.sep).join("/"),
    };
  });
  for (const surfaceId of lacking) {
    if (ids.includes(surfaceId)) continue;
    ids.push(surfaceId);
    rows.push({
      id: surfaceId,
      title: surfaceId,
      mark: "missing",
      differentPixels: null,
      percent: null,
      note: "an error or empty state the candidate's capture did not reach",
    });
  }
  const order = new Map(ids.map((surfaceId, i) => [surfaceId, i]));
  return rows.sort(
    (x, y) => RANK[x.mark] - RANK[y.mark] || (order.get(x.id) ?? 0) - (order.get(y.id) ?? 0),
  );
}

const pixels = (row: SurfaceRow) =>
  row.differentPixels === null
    ? (row.note ?? "")
    : `${row.differentPixels.toLocaleString("en")} pixels (${(row.percent ?? 0).toFixed(2)} %)`;

/** The one-line count, e.g. "92 surfaces, 2 changed, 1 new, 0 missing, 89 unchanged." */
export function surfaceCount(rows: SurfaceRow[]): string {
  const n = (mark: SurfaceMark) => rows.filter((r) => r.mark === mark).length;
  if (rows.length === 0) return "No surfaces captured (emulator/e2e/surfaces.e2e.ts did not run).";
  if (rows.every((r) => r.mark === "captured")) {
    return `${rows.length} surfaces captured from the candidate (no baseline to compare with).`;
  }
  return `${rows.length} surfaces, ${n("changed")} changed, ${n("new")} new, ${n("missing")} missing, ${n("unchanged")} unchanged.`;
}

/** summary.md's section: the count and the changed surfaces, each with its files. */
export function surfacesMarkdown(rows: SurfaceRow[]): string[] {
  const lines = ["## Surfaces", "", `- ${surfaceCount(rows)}`];
  for (const row of rows.filter((r) => r.mark !== "unchanged" && r.mark !== "captured")) {
    const files = [
      row.baseline?.image && `baseline \`${row.baseline.image}\``,
      row.candidate?.image && `candidate \`${row.candidate.image}\``,
      row.diff && `diff \`${row.diff}\``,
    ].filter(Boolean);
    lines.push(
      `- **${row.mark}** ${row.title} (\`${row.id}\`)${pixels(row) ? `: ${pixels(row)}` : ""}${files.length ? `; ${files.join(", ")}` : ""}`,
    );
  }
  lines.push(
    "",
    "A changed surface does not fail the run: look at it in index.html (baseline, candidate, difference).",
  );
  return lines;
}

function escapeHtml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function figure(caption: string, side: SurfaceSide | undefined, image?: string): string {
  const src = image ?? side?.image;
  const body = src
    ? `<a href="${escapeHtml(src)}"><img src="${escapeHtml(src)}" alt="${escapeHtml(caption)}" loading="lazy"></a>`
    : `<p class="none">${escapeHtml(side?.absent ? `absent: ${side.absent}` : "not captured")}</p>`;
  return `<figure><figcaption>${escapeHtml(caption)}</figcaption>${body}</figure>`;
}

/** index.html's section: every surface side by side, the changed ones first and highlighted. */
export function surfacesHtml(rows: SurfaceRow[]): string {
  const compared = rows.some((r) => r.mark !== "captured");
  const cards = rows.map((row) => {
    const figures = compared
      ? [
          figure("baseline", row.baseline),
          figure("candidate", row.candidate),
          ...(row.diff ? [figure("difference", undefined, row.diff)] : []),
        ]
      : [figure("candidate", row.candidate)];
    return `<section class="surface ${row.mark}" id="surface-${escapeHtml(row.id)}">
<h3><span class="mark">${row.mark}</span> ${escapeHtml(row.title)}${pixels(row) ? ` <small>${escapeHtml(pixels(row))}</small>` : ""}</h3>
<p><code>${escapeHtml(row.id)}</code></p>
<div class="sides">${figures.join("")}</div>
</section>`;
  });
  return `<h2 id="surfaces">Surfaces</h2>
<p>${escapeHtml(surfaceCount(rows))} Each SDK surface as the shopper sees it (emulator/e2e/surfaces.e2e.ts); a changed surface does not fail the run.</p>
${cards.join("\n")}`;
}

/** The styles of surfacesHtml, for the report's page. */
export const SURFACES_CSS = `
.surface{border:1px solid #ccc;border-radius:6px;padding:.5rem .75rem;margin:1rem 0}
.surface h3{margin:.25rem 0;font-size:1rem}.surface p{margin:.25rem 0}
.surface.changed,.surface.new,.surface.missing{border:3px solid #c0392b;background:#fff5f4}
.mark{display:inline-block;padding:0 .4rem;border-radius:4px;background:#e8f5e9;color:#1b5e20;font-size:.85rem;text-transform:uppercase}
.changed .mark,.new .mark,.missing .mark{background:#c0392b;color:#fff}
.sides{display:flex;gap:1rem;flex-wrap:wrap;align-items:flex-start}
.sides figure{margin:0;max-width:100%}.sides figcaption{font-size:.85rem;color:#555}
.sides img{max-width:100%;border:1px solid #ddd;display:block}.none{color:#777;font-style:italic}
`;
