import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import type { HttpObserver } from "./http.js";
import { processSingleton, replaceProcessSingleton } from "./process-singleton.js";
import type { IntegrationEntry, IntegrationLogStore } from "./shop-ports.js";
import { TOKEN_PATH } from "./tokens.js";

// The entry's type is the ports' (shop-ports.ts, a leaf module), named here too for /server.
export type { IntegrationEntry, IntegrationEntryKind } from "./shop-ports.js";

/**
 * The server side of the integration inspector: a bounded log of the service
 * API calls (one entry per HTTP attempt, from the transport's observer) and other integration
 * steps, each tagged with the shopper they were made for.
 *
 * Where it lives is the shop's IntegrationLogStore (shop-ports.ts): the shop's database, so a
 * shopper whose requests are balanced over several instances sees every call in the drawer,
 * whichever instance made it (docs/decisions/scaling.md). Until a store is installed (unit
 * tests, scripts) it is a bounded memory log. A write is not awaited by the call it describes,
 * and a failed one is only reported: the log must never slow or break a payment. Entries are
 * keyed by an inspector key, a one-way digest of the session id, so a shopper's drawer shows only
 * their own entries. Nothing secret is kept: no tokens, no bodies, no raw session id; a session
 * hash in a path is shortened.
 */

const CAPACITY_PER_KEY = 100;
const MAX_KEYS = 500;
const LOG_SINGLETON = "integration-log";

/** The bounded in-memory log used until the shop installs its store. */
function memoryIntegrationLog(): IntegrationLogStore {
  let seq = 0;
  const byKey = new Map<string, IntegrationEntry[]>();
  return {
    async append(key, entry) {
      let list = byKey.get(key);
      if (!list) {
        // Bounded in keys too: the oldest shopper's log goes first.
        if (byKey.size >= MAX_KEYS) {
          const oldest = byKey.keys().next().value;
          if (oldest !== undefined) byKey.delete(oldest);
        }
        list = [];
        byKey.set(key, list);
      }
      seq += 1;
      list.push({ ...entry, seq });
      if (list.length > CAPACITY_PER_KEY) list.splice(0, list.length - CAPACITY_PER_KEY);
    },
    async read(key, afterSeq) {
      return (byKey.get(key) ?? []).filter((e) => e.seq > afterSeq);
    },
  };
}

function integrationLog(): IntegrationLogStore {
  return processSingleton(LOG_SINGLETON, memoryIntegrationLog);
}

/** Installs the shop's store (once per process, at start: instrumentation.ts). */
export function installIntegrationLog(store: IntegrationLogStore): void {
  replaceProcessSingleton(LOG_SINGLETON, store);
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

/** Adds an entry to the log under `key` (no key: nothing recorded). */
export function recordIntegrationEntry(
  key: string | undefined,
  entry: Omit<IntegrationEntry, "seq" | "at"> & { at?: Date },
): void {
  if (!key) return;
  const { at, ...rest } = entry;
  integrationLog()
    .append(key, { ...rest, at: (at ?? new Date()).toISOString() })
    .catch((error) => console.error("[integration inspector] entry not stored:", error));
}

/** Records a step for the shopper of the current request context (no-op outside one). */
export function recordStep(entry: Omit<IntegrationEntry, "seq" | "at" | "kind">): void {
  recordIntegrationEntry(context.getStore()?.key, { ...entry, kind: "step" });
}

/** A shopper's latest entries (at most 100), oldest first. */
export function readIntegrationEntries(key: string, afterSeq = 0): Promise<IntegrationEntry[]> {
  return integrationLog().read(key, afterSeq);
}

/** Test helper: back to an empty memory log. */
export function clearIntegrationLog(): void {
  installIntegrationLog(memoryIntegrationLog());
}

/** A session hash (64 hex) or versioned session id in a path is cut to its first 8 digits. */
export function redactPath(path: string): string {
  return path.replace(/[0-9a-f]{16,}(%7C|\|)?(\d{3})?/gi, (match) => `${match.slice(0, 8)}…`);
}

/**
 * Non-2xx answers the protocol expects, with what the shop does next:
 * - 401 on an API call: the access token expired or was revoked; the client renews it and
 *   repeats the call (contract, Authentication: refresh with grant_type=refresh_token).
 * - 400 or 401 on the refresh grant: the refresh token is no longer valid (after a reset,
 *   expired, or used already); the client logs in again with the password grant.
 * - 404 on the shopper's session: the service holds no session for this shopper, so there is no
 *   trade-in and nothing to register (public-docs-facts: Sessions; contract: 404 unknown).
 * Anything else that is not 2xx stays a failure.
 */
export function expectedAnswer(event: {
  method: string;
  path: string;
  status?: number;
  step?: string;
}): string | undefined {
  const { status, path } = event;
  if (status === 401 && path !== TOKEN_PATH) {
    return "Access token no longer accepted: the shop renews it and repeats the call.";
  }
  if ((status === 400 || status === 401) && path === TOKEN_PATH && event.step === "refresh_token") {
    return "Refresh token no longer valid: the shop logs in again with its API credentials.";
  }
  if (status === 404 && event.method === "GET" && path.startsWith("/core/sessions/")) {
    return "No session at the service for this shopper: no trade-in, nothing to register.";
  }
  return undefined;
}

/** The transport observer (packages/kit/src/http.ts) that feeds the log. */
export const integrationObserver: HttpObserver = (event) => {
  const key = context.getStore()?.key;
  if (!key) return;
  const status = event.status;
  const expected = expectedAnswer(event);
  recordIntegrationEntry(key, {
    kind: "api",
    label: `${event.method} ${redactPath(event.path)}`,
    ...(status !== undefined ? { status } : {}),
    ...(expected ? { expected } : {}),
    ok: expected !== undefined || (status !== undefined && status >= 200 && status < 300),
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
