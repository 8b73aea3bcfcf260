// The readiness report of one merchant: the passive findings of the whole run (merged across
// emulator resets, which clear the journal), the latest active checks, and every rule the
// report has no finding for as "not yet exercised".
import type { EmulatorContext } from "../context";
import type { JournalEntry } from "../journal";
import { webhooksFor } from "../webhooks/module";
import { runActiveChecks } from "./active";
import { archiveEvidence, type Finding, mergeFindings, type Verdict } from "./findings";
import {
  bearerOf,
  evaluatePassive,
  formOf,
  jsonOf,
  OBSERVATIONS_PATH,
  type PassiveFindings,
} from "./passive";
import { GROUPS, RULES, type Rule, type RuleId } from "./rules";

export interface ReportRule extends Rule, Finding {}

export interface ReadinessReport {
  merchant_id: string;
  generated_at: string;
  /** No rule failed. */
  ready: boolean;
  summary: Record<Verdict, number>;
  active_checks: { ran_at: string; target_order_id: string } | null;
  groups: { id: string; title: string; rules: ReportRule[] }[];
}

const NOT_EXERCISED: Record<Rule["kind"], string> = {
  passive: "Not yet exercised: no traffic of this merchant has touched this rule.",
  active:
    "Not yet exercised: run the active checks (inspector's readiness page, or POST /__emulator/readiness/active).",
};

/** The token → merchant map is bounded; a long run keeps the newest owners. */
const MAX_TOKENS = 10_000;

export class Readiness {
  #epoch = 1;
  #runs = 0;
  #archive = new Map<string, PassiveFindings>();
  #active = new Map<
    string,
    { ran_at: string; target: string; findings: Partial<Record<RuleId, Finding>> }
  >();
  #declared = new Map<string, Set<string>>();
  #clients = new Map<string, string>();
  #tokens = new Map<string, string>();
  #webhookBases = new Map<string, string>();

  constructor(private readonly ctx: EmulatorContext) {
    // Before the journal is cleared, what it showed becomes part of the run's record.
    ctx.onBeforeReset(() => this.#archiveEpoch());
    // A merchant's reset starts its record over; other merchants keep theirs.
    ctx.onMerchantReset((merchantId) => this.clear(merchantId));
  }

  /** Raw session ids and salts a merchant's test declares (checked nowhere in the traffic). */
  declare(merchantId: string, values: string[]): void {
    const set = this.#declared.get(merchantId) ?? new Set<string>();
    for (const value of values) if (set.size < 1000) set.add(value);
    this.#declared.set(merchantId, set);
  }

  /** Whether the run so far holds anything of this merchant (it may be gone after a reset). */
  knows(merchantId: string): boolean {
    return this.#archive.has(merchantId) || this.#active.has(merchantId);
  }

  /** Starts a new record (one merchant, or all). */
  clear(merchantId?: string): void {
    for (const map of [this.#archive, this.#active, this.#declared]) {
      if (merchantId) map.delete(merchantId);
      else map.clear();
    }
  }

  async runActive(merchantId: string): Promise<void> {
    const merchant = this.ctx.state.getMerchant(merchantId);
    if (!merchant) throw new Error(`unknown merchant ${merchantId}`);
    this.#runs += 1;
    const { target, findings } = await runActiveChecks(this.ctx, merchant, this.#runs, this.#epoch);
    this.#active.set(merchantId, { ran_at: this.ctx.clock.iso(), target, findings });
  }

  report(merchantId: string): ReadinessReport {
    const current = this.#evaluate(merchantId);
    const archived = this.#archive.get(merchantId) ?? {};
    const active = this.#active.get(merchantId);
    const summary: Record<Verdict, number> = { pass: 0, fail: 0, not_exercised: 0 };
    const groups = GROUPS.map((group) => ({
      id: group.id,
      title: group.title,
      rules: (RULES as readonly Rule[])
        .filter((rule) => rule.group === group.id)
        .map((rule): ReportRule => {
          const id = rule.id as RuleId;
          const finding =
            rule.kind === "active"
              ? active?.findings[id]
              : mergeFindings(archived[id], current[id]);
          const shown = finding ?? {
            verdict: "not_exercised" as const,
            note: NOT_EXERCISED[rule.kind],
            evidence: [],
          };
          summary[shown.verdict] += 1;
          return { ...rule, ...shown };
        }),
    }));
    return {
      merchant_id: merchantId,
      generated_at: this.ctx.clock.iso(),
      ready: summary.fail === 0,
      summary,
      active_checks: active ? { ran_at: active.ran_at, target_order_id: active.target } : null,
      groups,
    };
  }

  #archiveEpoch(): void {
    const lookup = (seq: number) => this.ctx.journal.get(seq);
    for (const merchantId of this.ctx.state.merchants.keys()) {
      const current = this.#evaluate(merchantId);
      const archived = this.#archive.get(merchantId) ?? {};
      for (const [id, finding] of Object.entries(current) as [RuleId, Finding][]) {
        archived[id] = mergeFindings(archived[id], archiveEvidence(finding, lookup)) as Finding;
      }
      this.#archive.set(merchantId, archived);
    }
    for (const active of this.#active.values()) {
      for (const [id, finding] of Object.entries(active.findings) as [RuleId, Finding][]) {
        active.findings[id] = archiveEvidence(finding, (seq) =>
          finding.evidence.some((e) => e.seq === seq && e.epoch === this.#epoch)
            ? lookup(seq)
            : undefined,
        );
      }
    }
    this.#epoch += 1;
  }

  #evaluate(merchantId: string): PassiveFindings {
    const entries = this.ctx.journal.raw();
    this.#learn(entries);
    const merchantOf = this.#attribution(entries);
    return evaluatePassive({
      merchantId,
      entries,
      epoch: this.#epoch,
      merchantOf,
      webhookBase: this.#webhookBases.get(merchantId) ?? "\u0000",
      declared: [...(this.#declared.get(merchantId) ?? [])],
      notifications: webhooksFor(this.ctx)
        .list()
        .filter((n) => n.merchant_id === merchantId),
    });
  }

  /** Clients, tokens and webhook addresses of every merchant seen so far (they outlive resets). */
  #learn(entries: readonly JournalEntry[]): void {
    for (const client of this.ctx.state.clients.values()) {
      this.#clients.set(client.client_id, client.merchant_id);
    }
    for (const merchant of this.ctx.state.merchants.values()) {
      this.#webhookBases.set(merchant.id, merchant.webhook_base.replace(/\/+$/, ""));
    }
    for (const token of this.ctx.state.accessTokens.values()) {
      this.#tokens.set(token.token, token.merchant_id);
    }
    for (const e of entries) {
      if (e.path !== "/oauth2/token/" || e.status !== 200 || !e.client_id) continue;
      const body = e.response_body as { access_token?: unknown } | undefined;
      const merchant = this.#clients.get(e.client_id);
      if (typeof body?.access_token === "string" && merchant) {
        this.#tokens.set(body.access_token, merchant);
      }
    }
    while (this.#tokens.size > MAX_TOKENS) {
      const oldest = this.#tokens.keys().next().value;
      if (oldest === undefined) break;
      this.#tokens.delete(oldest);
    }
  }

  #attribution(entries: readonly JournalEntry[]): (entry: JournalEntry) => string | undefined {
    const cache = new Map<number, string | undefined>();
    const direct = (e: JournalEntry): string | undefined => {
      if (e.kind === "webhook") {
        for (const [merchant, base] of this.#webhookBases) {
          if (e.path.startsWith(`${base}/`)) return merchant;
        }
        return undefined;
      }
      if (e.client_id) return this.#clients.get(e.client_id);
      if (e.path === "/oauth2/token/") {
        const id = formOf(e.request_body).client_id;
        return id ? this.#clients.get(id) : undefined;
      }
      if (e.path.startsWith("/sdk/v1/") || e.path === OBSERVATIONS_PATH) {
        const body = jsonOf(e.request_body) as { merchant_id?: unknown } | undefined;
        const id = body?.merchant_id ?? new URLSearchParams(e.query ?? "").get("merchant_id");
        return typeof id === "string" ? id : undefined;
      }
      const token = bearerOf(e);
      return token ? this.#tokens.get(token) : undefined;
    };
    return (entry) => {
      if (cache.has(entry.seq)) return cache.get(entry.seq);
      let merchant = direct(entry);
      // A refused token the emulator never issued in this run (an emulator reset dropped it):
      // the merchant is the one whose token request follows within 30 s.
      if (!merchant && entry.kind === "request" && entry.status === 401 && bearerOf(entry)) {
        const next = entries.find(
          (n) => n.seq > entry.seq && n.path === "/oauth2/token/" && n.at - entry.at <= 30_000,
        );
        merchant = next ? direct(next) : undefined;
      }
      cache.set(entry.seq, merchant);
      return merchant;
    };
  }
}

const instances = new WeakMap<EmulatorContext, Readiness>();

export function readinessFor(ctx: EmulatorContext): Readiness {
  let readiness = instances.get(ctx);
  if (!readiness) {
    readiness = new Readiness(ctx);
    instances.set(ctx, readiness);
  }
  return readiness;
}

/**
 * One merchant's reports from several emulators that each saw part of the same run (a test
 * suite with one emulator per worker): each rule merged as across resets (mergeFindings), its
 * evidence labelled with the emulator it came from.
 */
export function mergeReports(
  reports: { source: string; report: ReadinessReport }[],
): ReadinessReport {
  const [first] = reports;
  if (!first) throw new Error("no report to merge");
  if (reports.length === 1) return first.report;
  const summary: Record<Verdict, number> = { pass: 0, fail: 0, not_exercised: 0 };
  const groups = first.report.groups.map((group) => ({
    ...group,
    rules: group.rules.map((rule): ReportRule => {
      let merged: Finding | undefined;
      for (const { source, report } of reports) {
        const same = report.groups.flatMap((g) => g.rules).find((r) => r.id === rule.id);
        if (!same) continue;
        const evidence = same.evidence.map((e) => ({ ...e, summary: `${source}: ${e.summary}` }));
        merged = mergeFindings(merged, { verdict: same.verdict, note: same.note, evidence });
      }
      const shown = merged ?? { verdict: rule.verdict, note: rule.note, evidence: [] };
      summary[shown.verdict] += 1;
      return { ...rule, ...shown };
    }),
  }));
  const ran = reports.flatMap(({ report }) => (report.active_checks ? [report.active_checks] : []));
  return {
    merchant_id: first.report.merchant_id,
    generated_at:
      reports
        .map(({ report }) => report.generated_at)
        .sort()
        .at(-1) ?? first.report.generated_at,
    ready: summary.fail === 0,
    summary,
    active_checks: ran.sort((a, b) => a.ran_at.localeCompare(b.ran_at)).at(-1) ?? null,
    groups,
  };
}
