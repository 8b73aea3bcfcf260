"use client";

import { ALL_SERVICE_EVENTS } from "@service-integration/kit";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { INSPECTOR_COOKIE, type InspectorPlacement } from "./inspector-placement";
import { foldPageLoadRepeats } from "./inspector-rows";
import styles from "./integration-inspector.module.css";

/**
 * The integration inspector (a demo aid; docs/decisions/inspector-feed.md): a drawer that lists, in order, the SDK's window
 * events, the callback calls the SDK makes (shopper_data, purchase_data), the service API calls
 * the shop's server made for this shopper and the webhooks received for this shopper's orders,
 * each with its status and timing. Browser-side entries are collected here (event listeners and
 * the Resource Timing API) and kept in sessionStorage across page loads; server-side entries come
 * from GET /api/service/inspector, polled while the drawer is open.
 */

const CALLBACKS = ["/api/service/shopper_data", "/api/service/purchase_data"];

type Kind = "sdk" | "callback" | "api" | "webhook" | "step";

export interface Entry {
  id: string;
  at: string;
  kind: Kind;
  label: string;
  status?: number;
  ok: boolean;
  durationMs?: number;
  detail?: string;
  /** A non-2xx answer the protocol expects, in a plain sentence (shown neutral, not red). */
  expected?: string;
}

interface ServerEntry extends Omit<Entry, "id" | "kind"> {
  seq: number;
  kind: "api" | "callback" | "webhook" | "step";
}

const STORAGE_KEY = "integration-inspector";
/** Keep in step with the media query in integration-inspector.module.css and globals.css. */
const DOCKED_MEDIA = "(min-width: 90rem)";
const MAX_ENTRIES = 150;
const POLL_MS = 2000;
const KIND_LABELS: Record<Kind, string> = {
  sdk: "SDK event",
  callback: "Callback",
  api: "Service API",
  webhook: "Webhook",
  step: "Shop",
};

interface Stored {
  entries: Entry[];
  /** "Clear" hides the server's entries up to this moment too. */
  clearedAt?: string;
  /** Whose entries these are (GET /api/service/inspector's `owner`). */
  owner?: string;
}

function loadStored(): Stored {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as Stored) : { entries: [] };
  } catch {
    return { entries: [] };
  }
}

/** A short, non-secret summary of an event's detail: its message and a few ids. */
function summarise(detail: unknown): string {
  if (!detail || typeof detail !== "object") return "";
  const d = detail as Record<string, unknown>;
  return ["message", "mode", "modal", "cart_id", "order_id", "tradein_id"]
    .filter((k) => typeof d[k] === "string" || typeof d[k] === "number")
    .map((k) => (k === "message" ? String(d[k]) : `${k}: ${String(d[k])}`))
    .join(" · ")
    .slice(0, 200);
}

export function IntegrationInspector({ placement }: { placement: InspectorPlacement }) {
  const [entries, setEntries] = useState<Entry[]>([]);
  // null: "auto" not resolved yet (the server's rendering, laid out by CSS alone).
  const [open, setOpen] = useState<boolean | null>(
    placement === "auto" ? null : placement === "open",
  );
  const panelId = useId();
  const counter = useRef(0);
  // The log as of now, written to sessionStorage at once: an event fired just before the SDK
  // navigates (service-payment-completed, then the confirmation page) must survive the unload.
  const log = useRef<Stored>({ entries: [] });

  const persist = useCallback(() => {
    try {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(log.current));
    } catch {
      // Storage full or blocked: the drawer still works for this page.
    }
  }, []);

  const add = useCallback(
    (entry: Omit<Entry, "id">) => {
      counter.current += 1;
      const id = `c${Date.now()}-${counter.current}`;
      log.current.entries = [...log.current.entries, { ...entry, id }].slice(-MAX_ENTRIES);
      persist();
      setEntries(log.current.entries);
    },
    [persist],
  );

  // Restore the log of this tab; resolve "auto" as CSS already laid it out: open at first only
  // on a wide screen (a presenter's laptop), where the docked drawer covers nothing.
  useEffect(() => {
    const stored = loadStored();
    log.current.entries = [...(stored.entries ?? []), ...log.current.entries].slice(-MAX_ENTRIES);
    if (stored.clearedAt) log.current.clearedAt = stored.clearedAt;
    if (stored.owner) log.current.owner = stored.owner;
    setEntries(log.current.entries);
    setOpen((now) => now ?? window.matchMedia(DOCKED_MEDIA).matches);
  }, []);

  const toggle = () => {
    const next = !open;
    // The page's frame (app/(shop)/layout.tsx) makes room for the docked drawer from this cookie.
    // biome-ignore lint/suspicious/noDocumentCookie: a fixed, non-secret value; cookieStore is not in every browser the shop supports
    document.cookie = `${INSPECTOR_COOKIE}=${next ? "open" : "closed"}; path=/; max-age=31536000; samesite=lax`;
    document
      .querySelector("[data-inspector]")
      ?.setAttribute("data-inspector", next ? "open" : "closed");
    setOpen(next);
  };

  // SDK events on window, from the first render on (the SDK may be ready before the drawer opens).
  useEffect(() => {
    const handlers = ALL_SERVICE_EVENTS.map((name) => {
      const handler = (event: Event) =>
        add({
          at: new Date().toISOString(),
          kind: "sdk",
          label: name,
          ok: true,
          detail: summarise((event as CustomEvent).detail),
        });
      window.addEventListener(name, handler);
      return [name, handler] as const;
    });
    return () => {
      for (const [name, handler] of handlers) window.removeEventListener(name, handler);
    };
  }, [add]);

  // The SDK's callback calls, as the browser timed them (status from Resource Timing).
  useEffect(() => {
    if (typeof PerformanceObserver === "undefined") return;
    const observer = new PerformanceObserver((list) => {
      for (const item of list.getEntries() as PerformanceResourceTiming[]) {
        const path = new URL(item.name, location.href).pathname;
        if (!CALLBACKS.includes(path)) continue;
        const status = (item as PerformanceResourceTiming & { responseStatus?: number })
          .responseStatus;
        add({
          at: new Date(performance.timeOrigin + item.startTime).toISOString(),
          kind: "callback",
          label: `GET ${path.replace("/api/service/", "")}`,
          ...(status ? { status } : {}),
          ok: !status || (status >= 200 && status < 300) || status === 404,
          durationMs: Math.round(item.duration),
          detail: status === 404 && path.endsWith("shopper_data") ? "anonymous shopper" : "",
        });
      }
    });
    observer.observe({ type: "resource", buffered: true });
    return () => observer.disconnect();
  }, [add]);

  // Another shopper in this tab (signed out, then someone else signed in): what the previous
  // shopper's pages recorded goes; this page's own entries stay.
  const adopt = useCallback(
    (owner: string | null) => {
      if (!owner || owner === log.current.owner) return;
      if (log.current.owner) {
        const pageStart = new Date(performance.timeOrigin).toISOString();
        log.current.entries = log.current.entries.filter((e) => e.at >= pageStart);
        setEntries(log.current.entries);
      }
      log.current.owner = owner;
      persist();
    },
    [persist],
  );

  // Server-side entries, while open; the feed's owner once per page load in any case.
  const [server, setServer] = useState<ServerEntry[]>([]);
  useEffect(() => {
    let stopped = false;
    const poll = async () => {
      try {
        const response = await fetch("/api/service/inspector", { cache: "no-store" });
        if (response.ok && !stopped) {
          const body = (await response.json()) as { owner: string | null; entries: ServerEntry[] };
          adopt(body.owner);
          if (open) setServer(body.entries);
        }
      } catch {
        // Offline or restarting: try again on the next tick.
      }
    };
    void poll();
    if (!open) {
      return () => {
        stopped = true;
      };
    }
    const timer = setInterval(poll, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [open, adopt]);

  const panel = useRef<HTMLDivElement>(null);
  const all: Entry[] = [...entries, ...server.map((e) => ({ ...e, id: `s${e.seq}` }))].sort(
    (a, b) => a.at.localeCompare(b.at),
  );

  const rows = foldPageLoadRepeats(all);
  // Keep the newest entry in view, as a log does.
  const count = all.length;
  useEffect(() => {
    if (open && count > 0 && panel.current) panel.current.scrollTop = panel.current.scrollHeight;
  }, [open, count]);

  return (
    <aside
      className={styles.inspector}
      aria-label="Integration inspector"
      data-open={open === null ? "auto" : open ? "true" : "false"}
    >
      <button
        type="button"
        className={styles.toggle}
        aria-expanded={open === true}
        aria-controls={panelId}
        onClick={toggle}
      >
        {open ? "Hide" : "Show"} integration inspector ({all.length})
      </button>
      <div
        id={panelId}
        ref={panel}
        className={styles.panel}
        hidden={open === false}
        data-testid="integration-inspector"
      >
        <div className={styles.header}>
          <h2 className={styles.title}>Integration inspector</h2>
          <button
            type="button"
            className={styles.clear}
            onClick={() => {
              log.current.entries = [];
              log.current.clearedAt = new Date().toISOString();
              persist();
              setEntries([]);
              setServer([]);
            }}
          >
            Clear
          </button>
        </div>
        {all.length === 0 ? (
          <p className={styles.empty}>
            Nothing yet. Value a device or check out to see the protocol.
          </p>
        ) : (
          <ol className={styles.list}>
            {rows.map((e) => (
              <li
                key={e.id}
                className={styles.entry}
                data-kind={e.kind}
                data-ok={e.ok ? "true" : "false"}
                data-expected={e.expected ? "true" : undefined}
              >
                {/* The time first, as a log reads: the sentences below stay whole. */}
                <time className={styles.meta} dateTime={e.at}>
                  {e.at.slice(11, 23)}
                </time>{" "}
                <span className={styles.kind}>{KIND_LABELS[e.kind]}</span>{" "}
                <span className={styles.label}>{e.label}</span>
                {e.repeats > 1 ? (
                  <span className={styles.meta}>
                    {" "}
                    ×{e.repeats}, once per page load; the latest:
                  </span>
                ) : null}
                {e.status !== undefined || e.durationMs !== undefined ? (
                  <span className={styles.meta}>
                    {" "}
                    {[
                      e.status !== undefined ? `${e.status}` : "",
                      e.durationMs !== undefined ? `${e.durationMs} ms` : "",
                    ]
                      .filter(Boolean)
                      .join(" · ")}
                  </span>
                ) : null}
                {e.expected ? <span className={styles.expected}>{e.expected}</span> : null}
                {e.detail ? <span className={styles.detail}>{e.detail}</span> : null}
              </li>
            ))}
          </ol>
        )}
      </div>
    </aside>
  );
}
