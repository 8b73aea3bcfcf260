// A rule's verdict and the journal entries that back it, plus how verdicts of several stretches
// of a run (an emulator reset clears the journal) are merged into one.
import type { JournalEntry } from "../journal";
import { presentEntry } from "../journal";

export type Verdict = "pass" | "fail" | "not_exercised";

export interface Evidence {
  seq: number;
  /** Which stretch of the run between two emulator resets (the journal restarts at 1). */
  epoch: number;
  at: string;
  summary: string;
  /** The (redacted) entry itself, kept once a reset has cleared it from the journal. */
  entry?: JournalEntry;
}

export interface Finding {
  verdict: Verdict;
  /** What was seen, in a plain sentence. */
  note: string;
  evidence: Evidence[];
}

/** At most this many entries are kept as evidence per rule (failures first). */
export const MAX_EVIDENCE = 5;

export function summarize(entry: JournalEntry): string {
  const status = entry.status === 0 ? (entry.error ?? "no answer") : String(entry.status);
  const query = entry.query ? `?${entry.query}` : "";
  const prefix = entry.kind === "webhook" ? "webhook " : "";
  return `${prefix}${entry.method} ${entry.path}${query} → ${status}`;
}

export function evidenceOf(entries: readonly JournalEntry[], epoch: number): Evidence[] {
  return entries.slice(0, MAX_EVIDENCE).map((entry) => ({
    seq: entry.seq,
    epoch,
    at: new Date(entry.at).toISOString(),
    summary: summarize(entry),
  }));
}

/** Keeps the entries of evidence whose journal is about to be cleared. */
export function archiveEvidence(
  finding: Finding,
  lookup: (seq: number) => JournalEntry | undefined,
): Finding {
  return {
    ...finding,
    evidence: finding.evidence.map((e) => {
      if (e.entry) return e;
      const entry = lookup(e.seq);
      return entry ? { ...e, entry: presentEntry(entry) } : e;
    }),
  };
}

/**
 * Several stretches of one run: a failure anywhere stands (with its evidence first), else a
 * pass anywhere, else not exercised.
 */
export function mergeFindings(a: Finding | undefined, b: Finding | undefined): Finding | undefined {
  if (!a) return b;
  if (!b) return a;
  const rank: Record<Verdict, number> = { fail: 2, pass: 1, not_exercised: 0 };
  const [first, second] = rank[b.verdict] > rank[a.verdict] ? [b, a] : [a, b];
  const evidence =
    first.verdict === second.verdict ? [...first.evidence, ...second.evidence] : first.evidence;
  return { ...first, evidence: evidence.slice(0, MAX_EVIDENCE) };
}
