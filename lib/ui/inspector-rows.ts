import type { Entry } from "./integration-inspector";

/** An entry as the drawer lists it: `repeats` > 1 when it stands for several page loads. */
export type Row = Entry & { repeats: number };

/** What every page load repeats once: the SDK starting and reading the shopper. */
function pageLoadKey(entry: Entry): string | null {
  if (entry.kind === "sdk" && entry.label === "service-ready") return "sdk:service-ready";
  if (entry.kind === "callback" && entry.label === "GET shopper_data") {
    return `callback:shopper_data:${entry.status ?? ""}`;
  }
  return null;
}

/**
 * One line per page-load step instead of one per page: each of `service-ready` and the
 * shopper_data callback (per status) is listed once, where it last happened, with how often.
 * Everything else is listed as it came.
 */
export function foldPageLoadRepeats(entries: readonly Entry[]): Row[] {
  const counts = new Map<string, number>();
  const last = new Map<string, number>();
  entries.forEach((entry, index) => {
    const key = pageLoadKey(entry);
    if (!key) return;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    last.set(key, index);
  });
  const rows: Row[] = [];
  entries.forEach((entry, index) => {
    const key = pageLoadKey(entry);
    if (key === null) rows.push({ ...entry, repeats: 1 });
    else if (last.get(key) === index) rows.push({ ...entry, repeats: counts.get(key) ?? 1 });
  });
  return rows;
}
