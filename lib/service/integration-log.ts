import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import type { HttpObserver } from "./http";

/**
 * The server side of the integration inspector (issue #6, item 5): a small bounded in-memory log
 * per server process of the service API calls (one entry per HTTP attempt, from the transport's
 * observer) and other integration steps, each tagged with the shopper they were made for.
 *
 * Decision (README, Integration inspector): memory, not a table. The log is a demo and
 * debugging aid; losing it on restart costs nothing, and it must not add a database write to
 * every API call. Entries are keyed by an inspector key, a one-way digest of the session id, so
 * a shopper's drawer shows only their own entries. Nothing secret is kept: no tokens, no bodies,
 * no raw session id; a session hash in a path is shortened.
 */

export type IntegrationEntryKind = "api" | "callback" | "webhook" | "step";

export interface IntegrationEntry {
  seq: number;
  at: string;
  kind: IntegrationEntryKind;
  /** e.g. "GET /core/sessions/3f2a…/" or "register-purchase queued" */
  label: string;
  status?: number;
  ok: boolean;
  durationMs?: number;
  detail?: string;
}

const CAPACITY_PER_KEY = 100;
const MAX_KEYS = 500;

interface LogState {
  seq: number;
  byKey: Map<string, IntegrationEntry[]>;
}

const globalForLog = globalThis as unknown as { shopIntegrationLog?: LogState };

function state(): LogState {
  globalForLog.shopIntegrationLog ??= { seq: 0, byKey: new Map() };
  return globalForLog.shopIntegrationLog;
}

/** One-way: the drawer's key for a shopper session, never the session id itself. */
export function inspectorKey(sessionId: string): string {
  return createHash("sha256").update(`integration-inspector:${sessionId}`).digest("hex");
}

// On globalThis like the log: Next can load this module twice in one process (routes, actions,
// instrumentation), and the client's observer may come from another copy than the request's.
const globalForContext = globalThis as unknown as {
  shopInspectorContext?: AsyncLocalStorage<{ key: string }>;
};
globalForContext.shopInspectorContext ??= new AsyncLocalStorage<{ key: string }>();
const context = globalForContext.shopInspectorContext;

/** Runs `fn` with every service API call inside it logged for this shopper's drawer. */
export function withInspectorSession<T>(sessionId: string, fn: () => Promise<T>): Promise<T> {
  return context.run({ key: inspectorKey(sessionId) }, fn);
}

export function recordIntegrationEntry(
  key: string | undefined,
  entry: Omit<IntegrationEntry, "seq" | "at"> & { at?: Date },
): void {
  if (!key) return;
  const s = state();
  let list = s.byKey.get(key);
  if (!list) {
    // Bounded in keys too: the oldest shopper's log goes first.
    if (s.byKey.size >= MAX_KEYS) {
      const oldest = s.byKey.keys().next().value;
      if (oldest !== undefined) s.byKey.delete(oldest);
    }
    list = [];
    s.byKey.set(key, list);
  }
  s.seq += 1;
  const { at, ...rest } = entry;
  list.push({ ...rest, seq: s.seq, at: (at ?? new Date()).toISOString() });
  if (list.length > CAPACITY_PER_KEY) list.splice(0, list.length - CAPACITY_PER_KEY);
}

/** Records a step for the shopper of the current request context (no-op outside one). */
export function recordStep(entry: Omit<IntegrationEntry, "seq" | "at" | "kind">): void {
  recordIntegrationEntry(context.getStore()?.key, { ...entry, kind: "step" });
}

export function readIntegrationEntries(key: string, afterSeq = 0): IntegrationEntry[] {
  return (state().byKey.get(key) ?? []).filter((e) => e.seq > afterSeq);
}

/** Test helper and for `reset`: forget everything. */
export function clearIntegrationLog(): void {
  globalForLog.shopIntegrationLog = { seq: 0, byKey: new Map() };
}

/** A session hash (64 hex) or versioned session id in a path is cut to its first 8 digits. */
export function redactPath(path: string): string {
  return path.replace(/[0-9a-f]{16,}(%7C|\|)?(\d{3})?/gi, (match) => `${match.slice(0, 8)}…`);
}

/** The transport observer (lib/service/http.ts) that feeds the log. */
export const integrationObserver: HttpObserver = (event) => {
  const key = context.getStore()?.key;
  if (!key) return;
  const status = event.status;
  recordIntegrationEntry(key, {
    kind: "api",
    label: `${event.method} ${redactPath(event.path)}`,
    ...(status !== undefined ? { status } : {}),
    ok: status !== undefined && status >= 200 && status < 300,
    durationMs: Math.round(event.durationMs),
    detail: [
      event.attempt > 1 ? `attempt ${event.attempt}` : "",
      event.failure ?? "",
      event.retryInMs !== undefined ? `retry in ${Math.round(event.retryInMs)} ms` : "",
    ]
      .filter(Boolean)
      .join(", "),
  });
};
