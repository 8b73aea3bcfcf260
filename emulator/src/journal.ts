// The request journal: every request the emulator answered plus every outgoing webhook
// attempt, in a bounded ring buffer. Writes only store references (the hot path stays cheap);
// redaction and serialisation happen when the journal is read.

export type JournalKind = "request" | "webhook";

export interface JournalEntry {
  seq: number;
  kind: JournalKind;
  /** Emulator clock time, epoch ms. */
  at: number;
  method: string;
  /** Path for requests; full target URL for webhooks. */
  path: string;
  query?: string;
  status: number;
  duration_ms: number;
  request_headers?: Record<string, string>;
  /** Answer headers worth judging by (Retry-After), requests only. */
  response_headers?: Record<string, string>;
  request_body?: unknown;
  response_body?: unknown;
  /** OAuth client that made the request, when known. */
  client_id?: string;
  /** Merchant the request was authenticated as or addressed to (or the webhook's), when known. */
  merchant_id?: string;
  /** Fault rule that shaped this response, when one did. */
  fault?: string;
  /** Webhook delivery attempt number (1 = first). */
  attempt?: number;
  /** Transport error of a webhook attempt (no HTTP answer). */
  error?: string;
  /** Anything else worth showing (webhook id, order id...). */
  meta?: Record<string, unknown>;
}

export type JournalInput = Omit<JournalEntry, "seq">;

const SECRET_KEY = /(password|secret|token|authorization|signature)/i;
const MAX_TEXT = 64 * 1024;
const HEADERS_KEPT = new Set([
  "authorization",
  "content-type",
  "origin",
  "user-agent",
  "x-service-signature",
  "retry-after",
]);

/** Replaces the values of secret-looking keys, recursively. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    out[key] = SECRET_KEY.test(key) && v !== null && v !== undefined ? "***" : redact(v, depth + 1);
  }
  return out;
}

/** Keeps the scheme of an Authorization header and hides its credentials. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === "authorization") {
      const scheme = value.split(" ")[0] ?? "";
      out[lower] = `${scheme} ***`;
    } else if (lower === "x-service-signature") {
      out[lower] = "***";
    } else {
      out[lower] = value;
    }
  }
  return out;
}

/** Request/response text → something readable and redacted (JSON, form or truncated text). */
export function redactBody(body: unknown): unknown {
  if (body === undefined || body === null || body === "") return undefined;
  if (typeof body !== "string") return redact(body);
  const text = body.length > MAX_TEXT ? `${body.slice(0, MAX_TEXT)}…(truncated)` : body;
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return redact(JSON.parse(text));
    } catch {
      return text;
    }
  }
  if (/^[\w.%+-]+=[^&]*(&[\w.%+-]+=[^&]*)*$/.test(text)) {
    const form: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(text)) form[k] = v;
    return redact(form);
  }
  return text;
}

export function pickHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of HEADERS_KEPT) {
    const value = headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

export class Journal {
  #entries: (JournalEntry | undefined)[];
  #seq = 0;
  #capacity: number;

  constructor(capacity = 2000) {
    this.#capacity = capacity;
    this.#entries = new Array(capacity);
  }

  get capacity(): number {
    return this.#capacity;
  }

  /** Last sequence number written (0 when empty). */
  get lastSeq(): number {
    return this.#seq;
  }

  record(input: JournalInput): JournalEntry {
    const entry = input as JournalEntry;
    entry.seq = ++this.#seq;
    this.#entries[entry.seq % this.#capacity] = entry;
    return entry;
  }

  /** For the webhook dispatcher: one outgoing delivery attempt. */
  recordWebhook(attempt: {
    at: number;
    url: string;
    status: number;
    duration_ms: number;
    attempt: number;
    request_headers?: Record<string, string>;
    request_body?: unknown;
    response_body?: unknown;
    error?: string;
    merchant_id?: string;
    meta?: Record<string, unknown>;
  }): JournalEntry {
    const { url, ...rest } = attempt;
    return this.record({ kind: "webhook", method: "POST", path: url, ...rest });
  }

  /**
   * Entries after `after`, oldest first, NOT redacted: for the emulator's own judgements (the
   * readiness report), never for an HTTP answer.
   */
  raw(after = 0): readonly JournalEntry[] {
    const first = Math.max(after + 1, this.#seq - this.#capacity + 1, 1);
    const out: JournalEntry[] = [];
    for (let seq = first; seq <= this.#seq; seq++) {
      const entry = this.#entries[seq % this.#capacity];
      if (entry && entry.seq === seq) out.push(entry);
    }
    return out;
  }

  /** One raw entry by sequence number, while the ring buffer still holds it. */
  get(seq: number): JournalEntry | undefined {
    const entry = this.#entries[seq % this.#capacity];
    return entry?.seq === seq ? entry : undefined;
  }

  clear(): void {
    this.#entries = new Array(this.#capacity);
    this.#seq = 0;
  }

  /** Drops one merchant's entries (its reset); sequence numbers go on, others stay. */
  clearMerchant(merchant: string): void {
    for (let i = 0; i < this.#entries.length; i++) {
      if (this.#entries[i]?.merchant_id === merchant) this.#entries[i] = undefined;
    }
  }

  /** Entries after `after` (oldest first), redacted, at most `limit` of the newest. */
  read(
    options: { after?: number; limit?: number; kind?: JournalKind; merchant?: string } = {},
  ): JournalEntry[] {
    const after = options.after ?? 0;
    const out: JournalEntry[] = [];
    for (const entry of this.raw(after)) {
      if (options.kind && entry.kind !== options.kind) continue;
      if (options.merchant !== undefined && entry.merchant_id !== options.merchant) continue;
      out.push(presentEntry(entry));
    }
    const limit = options.limit ?? out.length;
    return out.slice(Math.max(0, out.length - limit));
  }
}

/** An entry as the control API shows it: secrets redacted, bodies parsed. */
export function presentEntry(entry: JournalEntry): JournalEntry {
  const out: JournalEntry = { ...entry };
  if (entry.request_headers) out.request_headers = redactHeaders(entry.request_headers);
  if (entry.request_body !== undefined) out.request_body = redactBody(entry.request_body);
  if (entry.response_body !== undefined) out.response_body = redactBody(entry.response_body);
  return out;
}
